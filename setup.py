"""The one compiled part: METEOR's alignment search (``scorer/meteor/_search.c``). Optional:
where no C compiler is found the install goes on and the same search runs in Python
(``scorer.meteor.aligner``), with the same results."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("scorer.meteor._search", ["scorer/meteor/_search.c"], optional=True),
    ]
)
