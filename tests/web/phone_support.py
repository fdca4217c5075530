"""What every page must pass on a 390x844 touch phone: it fits the screen, and axe-core
(vendored, web/static/vendor/axe-core-*, loaded from the app's own origin so the CSP allows
it) finds no WCAG 2 A/AA violation. Both checks take a Playwright page."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, shot

AXE = "/static/vendor/axe-core-4.14.1/axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def scroll_width(page: Any) -> int:
    return int(page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"))


def axe_violations(page: Any, base: str) -> list[str]:
    """axe-core's WCAG 2 A/AA violations on the page as it is now: ``rule: target, target``."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=f"{base}{AXE}")
    found = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}})).violations"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', '))",
        WCAG_AA,
    )
    return [str(v) for v in found]


def check_page(page: Any, base: str, name: str) -> None:
    """The page fits a 390 px screen and has no WCAG 2 A/AA violation; its screenshot is saved."""
    shot(page, name)
    width = scroll_width(page)
    assert width <= PHONE["width"], f"{name}: {width} px wide on a {PHONE['width']} px screen"
    violations = axe_violations(page, base)
    assert violations == [], f"{name}: {violations}"
