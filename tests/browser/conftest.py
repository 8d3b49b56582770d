"""A real Chromium (Debian's ``chromium``) driven by Playwright, against the app served over
HTTP on loopback. Screenshots go to ``$NLGBOARD_ARTEFACTS`` (default ``build/test-artefacts``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTEFACTS = Path(os.environ.get("NLGBOARD_ARTEFACTS", "build/test-artefacts")) / "browser"


@pytest.fixture(scope="session")
def chromium() -> Iterator:
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium; .ci/run installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Python playwright is not installed (pip install '.[test]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium, request) -> Iterator:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
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
