"""YAML that a person gave (a bundle's ``challenge.yaml``, a ``--kinds`` file), read so that a
bad file is always a refusal, never a crash.

PyYAML's pure-Python loader composes nested nodes by recursion, so a few kilobytes of ``[``
end in a ``RecursionError``; libyaml's loader (used when PyYAML was built with it) refuses
deep nesting itself. Either way the caller gets a ``yaml.YAMLError`` to turn into its own
message.
"""

from __future__ import annotations

from typing import Any

import yaml

LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML has it (faster, and bounded in depth), else PyYAML's."""


class TooDeep(yaml.YAMLError):
    """Nesting deeper than the loader can compose."""

    problem = "lists and maps nest too deep"
    problem_mark = None

    def __str__(self) -> str:
        return self.problem


def load_yaml(text: str) -> Any:
    """``text`` parsed with the safe loader; ``yaml.YAMLError`` for anything it cannot read."""
    try:
        return yaml.load(text, Loader=LOADER)
    except RecursionError:
        raise TooDeep() from None
