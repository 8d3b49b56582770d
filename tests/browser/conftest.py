"""A real Chromium (Debian's ``chromium``) driven by Playwright, against the app served over
HTTP on loopback. Screenshots go to ``$NLGBOARD_ARTEFACTS`` (default ``build/test-artefacts``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.waiting import PAGE_DEADLINE

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTEFACTS = Path(os.environ.get("NLGBOARD_ARTEFACTS", "build/test-artefacts")) / "browser"
AXE = Path(os.environ.get("NLGBOARD_AXE", "build/node/node_modules/axe-core/axe.min.js"))
"""axe-core from npm (make test installs it: npm install --prefix build/node axe-core)."""
WIDTHS = {"phone": 390, "laptop": 1280, "desktop": 1920}


@pytest.fixture(scope="session")
def chromium() -> Iterator:
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium; .ci/run installs it)")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.skip("Python playwright is not installed (pip install '.[test]')")
    expect.set_options(timeout=PAGE_DEADLINE * 1000)  # like the pages': a safety net only
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(params=sorted(WIDTHS), ids=lambda name: f"{WIDTHS[name]}px")
def width(request) -> str:
    """Each browser test runs on a phone's width, a laptop's and a wide desktop's."""
    return request.param


@pytest.fixture
def page(chromium, request, width) -> Iterator:
    context = chromium.new_context(
        viewport={"width": WIDTHS[width], "height": 900},
        bypass_csp=True,  # lets the test inject axe-core; the pages' own CSP stays as served
    )
    page = context.new_page()
    page.set_default_timeout(PAGE_DEADLINE * 1000)  # a safety net: every wait is on a state
    yield page
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        screenshot(page, f"{request.node.name}-failed")
    context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def screenshot(page, name: str) -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def accessibility_problems(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (WCAG 2 A/AA and
    best practices), one line each with the elements they concern."""
    if not AXE.exists():
        pytest.skip(f"axe-core not installed at {AXE} (npm install --prefix build/node axe-core)")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => await axe.run(document, {
            runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice']},
            resultTypes: ['violations'],
        })"""
    )
    return [
        f"{v['impact']}: {v['id']} ({v['help']}) on "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def overflow(page) -> int:
    """How many pixels the page is wider than the screen (> 0: it scrolls sideways)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def check_page(page, name: str, width: str) -> None:
    """A screenshot kept as an artefact, then no serious or critical accessibility problem."""
    screenshot(page, f"{name}-{WIDTHS[width]}px")
    wide = overflow(page)
    assert wide <= 0, f"{page.url} is {wide} px wider than the screen ({WIDTHS[width]} px)"
    problems = accessibility_problems(page)
    assert not problems, f"{page.url}:\n" + "\n".join(problems)


def width_problems(page, name: str) -> list[str]:
    """The page as loaded, on each of WIDTHS in turn (one load, resized): a screenshot each,
    then what is wrong: sideways overflow and axe-core's serious or critical violations."""
    problems = []
    for label, pixels in sorted(WIDTHS.items(), key=lambda item: item[1]):
        page.set_viewport_size({"width": pixels, "height": 900})
        screenshot(page, f"{name}-{pixels}px")
        wide = overflow(page)
        if wide > 0:
            problems.append(f"{pixels} px ({label}): {wide} px wider than the screen")
        problems += [f"{pixels} px ({label}): {line}" for line in accessibility_problems(page)]
    return problems


def register(
    page,
    url: str,
    email: str,
    password: str,
    link: Callable[[str], str],
    width=None,
    shots: str = "participant-1",
) -> None:
    """Sign up through the register form, then open the link mailed to the address (``link``:
    its path, read from the board's outbox or an inbox), which makes the account and signs it
    in; with ``width``, the "check your mail" and confirmation pages are checked too."""
    page.goto(f"{url}/register")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Repeat password").fill(password)
    page.get_by_role("button", name="Register").click()
    page.get_by_role("heading", name="Check your mail").wait_for()
    if width is not None:
        check_page(page, f"{shots}-check-your-mail", width)
    page.goto(url + link(email))
    if width is not None:
        check_page(page, f"{shots}-confirm", width)
    page.get_by_role("button", name="Confirm my address").click()
    page.get_by_role("heading", name="Team").first.wait_for()
