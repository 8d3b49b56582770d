"""The compiled parts: METEOR's alignment search (``scorer/meteor/_search.c``), TER's shift
searches (``scorer/metrics/_tercom.c``) and chrF++'s statistics (``scorer/metrics/_chrf.c``).
Optional: where no C compiler is found the install goes on and the same computations run in
Python (``scorer.meteor.aligner``, ``scorer.metrics.tercom_search``, ``ter_pyter``,
``chrf_plus_plus``), with the same results."""

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
        # The sentence F that picks chrF++'s reference: the Python arithmetic, as above.
        Extension(
            "scorer.metrics._chrf",
            ["scorer/metrics/_chrf.c"],
            extra_compile_args=["-ffp-contract=off"],
            optional=True,
        ),
    ]
)
