"""The compiled parts: METEOR's alignment search (``scorer/meteor/_search.c``) and TER's shift
search (``scorer/metrics/_tercom.c``). Optional: where no C compiler is found the install goes
on and the same searches run in Python (``scorer.meteor.aligner``,
``scorer.metrics.tercom_search``), with the same results."""

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
        Extension("scorer.metrics._tercom", ["scorer/metrics/_tercom.c"], optional=True),
    ]
)
