"""The one compiled part: METEOR's alignment search (``scorer/meteor/_search.c``). Optional:
where no C compiler is found the install goes on and the same search runs in Python
(``scorer.meteor.aligner``), with the same results."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        # No fused multiply-adds: the score bound is the Python arithmetic, operation for operation.
        Extension(
            "scorer.meteor._search",
            ["scorer/meteor/_search.c"],
            extra_compile_args=["-ffp-contract=off"],
            optional=True,
        ),
    ]
)
