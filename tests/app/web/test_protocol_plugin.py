"""The protocol is human evaluation's plug-in: the board asks it and never names one."""

from __future__ import annotations

import re
from pathlib import Path

from scorer.human.protocols import PROTOCOLS

ROOT = Path(__file__).resolve().parents[3]
NAMED = re.compile(r"\bMethod\.[A-Z]+|method\s*[!=]=\s*['\"](rankme|da|rose|likert|pairwise)['\"]")


def test_no_module_of_the_board_or_worker_branches_on_a_protocol_name():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("app", "worker")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".html")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if NAMED.search(line)
    ]
    assert found == []


def test_every_protocol_has_its_unit_template():
    units = ROOT / "app" / "web" / "templates" / "human" / "units"
    assert {name for name in PROTOCOLS} <= {p.stem for p in units.glob("*.html")}
