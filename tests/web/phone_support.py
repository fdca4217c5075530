"""What every page must pass on a 390x844 touch phone: it fits the screen, axe-core
(vendored, web/static/vendor/axe-core-*, loaded from the app's own origin so the CSP allows
it) finds no WCAG 2 A/AA violation, every tap target is at least 44 px high (a link in a
line of text aside, as WCAG 2.5.8 allows), and no table header breaks a word over two lines.
The checks take a Playwright page."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, shot


def phone_page(browser: Any, *, init_script: str = "") -> Any:
    """A page in a new 390x844 touch-phone context (``init_script`` run before each document's own)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    if init_script:
        context.add_init_script(init_script)
    return context.new_page()


def log_in(page: Any, base: str, name: str, password: str) -> None:
    """Log the page in as ``name`` through the log-in form, and wait to leave it."""
    page.goto(f"{base}/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login" not in url)


STILL = """async () => {
  // the page has stopped moving: nothing asked of the server (an htmx request, swap or settle; a region the
  // page's own scripts mark aria-busy while they ask), and the scroll, its height and the focus the same over
  // five frames in a row
  const busy = ".htmx-request, .htmx-swapping, .htmx-settling, [aria-busy='true']"
  let last = null, same = 0
  while (same < 5) {
    await new Promise((r) => requestAnimationFrame(r))
    const now = JSON.stringify([scrollY, document.body.scrollHeight, document.activeElement?.id])
    same = now === last && !document.querySelector(busy) ? same + 1 : 0
    last = now
  }
}"""


def settle(page: Any) -> None:
    """Wait until the page has stopped moving (htmx's settle, the boards drawn, the scroll done): a state waited
    for, frame by frame, not a fixed sleep (issue 41)."""
    page.wait_for_load_state("networkidle")
    page.evaluate(STILL)


REDRAWN_BY = ("#f-claim", "#f-ruleset", "#f-game", "#f-event_slug")
"""The claim form's selects whose change redraws the whole form (``POST /claims/form``, claims/_form.html)."""


def choose(page: Any, select: str, value: str) -> None:
    """Pick ``value`` in one of the claim form's selects that redraw the whole form, and wait for the form the
    server draws for it: the form on the page is marked before the pick, and the wait is for one without the
    mark. Waiting for the option to be selected is not enough: an option already selected (the default claim,
    threefold) is found on the old form at once, and what the test does next lands on the form the redraw
    then replaces (a loaded run's "Element is not visible" on the claimant's radio)."""
    assert select in REDRAWN_BY, f"{select} does not redraw the form"
    page.evaluate("() => { const form = document.getElementById('claim-form'); if (form) form.dataset.replaced = '1' }")
    page.select_option(select, value)
    page.wait_for_selector("#claim-form:not([data-replaced])", state="attached")
    page.wait_for_selector(f'{select} option[value="{value}"][selected]', state="attached")


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


SMALL_TARGETS = """() => [...document.querySelectorAll('a, button, input, select, textarea, summary, label')]
  .filter((e) => e.offsetParent !== null && e.getClientRects().length)
  .filter((e) => !(e.tagName === 'INPUT' && ['checkbox', 'radio', 'hidden'].includes(e.type)))
  .filter((e) => !(e.tagName === 'LABEL' && !e.querySelector('input[type=checkbox], input[type=radio]')))
  .filter((e) => !(e.tagName === 'A' && getComputedStyle(e).display === 'inline'
                   && e.parentElement.closest('p, li, td, dd')
                   && e.parentElement.innerText.trim() !== e.innerText.trim()))
  .filter((e) => e.getBoundingClientRect().height < 44)
  .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} `
              + `"${(e.innerText || e.value || '').trim().slice(0, 30)}" `
              + `${Math.round(e.getBoundingClientRect().height)} px`)"""


BROKEN_WORDS = """() => [...document.querySelectorAll('th, .ruling-row .top > span:last-child')]
  .filter((e) => e.offsetParent !== null && /^\\S+$/.test(e.innerText.trim()))
  .filter((e) => { const r = document.createRange(); r.selectNodeContents(e);
                   return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1 })
  .map((e) => e.innerText.trim())"""


def broken_words(page: Any) -> list[str]:
    """Table headers and list statuses of one word that the screen breaks over two lines."""
    return [str(w) for w in page.evaluate(BROKEN_WORDS)]


def small_targets(page: Any) -> list[str]:
    """Tap targets (links, buttons, fields, a checkbox's label) under 44 px high; a link inside a line of
    text is not one (WCAG 2.5.8's inline exception), nor a checkbox inside its label (the label is)."""
    return [str(t) for t in page.evaluate(SMALL_TARGETS)]


def check_page(page: Any, base: str, name: str) -> None:
    """The page fits a 390 px screen, has no WCAG 2 A/AA violation and no tap target under 44 px;
    its screenshot is saved, after the checks: a full-page screenshot resizes the viewport, and Chromium can put
    the page back at another scroll position (24 px lower on the claim form), so that the checks judged a page
    the user never saw (the sticky claim bar over the position editor's palette, issue 37)."""
    try:
        _check(page, base, name)
    finally:
        shot(page, name)


def _check(page: Any, base: str, name: str) -> None:
    page.evaluate(STILL)  # a page still scrolling is judged where it stops, not on its way (a switch under the bar)
    width = scroll_width(page)
    assert width <= PHONE["width"], f"{name}: {width} px wide on a {PHONE['width']} px screen"
    violations = axe_violations(page, base)
    assert violations == [], f"{name}: {violations}"
    small = small_targets(page)
    assert small == [], f"{name}: tap targets under 44 px: {small}"
    broken = broken_words(page)
    assert broken == [], f"{name}: words broken mid-word: {broken}"


SHORT_LINKS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.offsetParent !== null && e.getClientRects().length)
  .filter((e) => e.getBoundingClientRect().height < 44)
  .map((e) => `"${e.innerText.trim().slice(0, 30)}" ${Math.round(e.getBoundingClientRect().height)} px`)"""


def short_links(page: Any, selector: str = "main a") -> list[str]:
    """Links under 44 px high, those in a line of text included (the check report's: issue 22)."""
    return [str(t) for t in page.evaluate(SHORT_LINKS, selector)]


def set_up_position(page: Any) -> None:
    """Open the claim form's position editor ("or set up the position"): a mode, closed unless a position is set
    up, so that one board is on the screen while a record is entered (issue 37)."""
    if page.get_attribute("#position-setup", "open") is None:
        page.locator("#position-setup > summary").click()


def refused_flag_claim(page: Any, base: str) -> None:
    """A flag claim with no flag ticked and no clock at 0 (White 0:01:10, Black 0:00:20), submitted from
    ``/claims/new``: the form's refusal (``#flagged-error``) is on the page when this returns."""
    page.goto(f"{base}/claims/new")
    choose(page, "#f-claim", "flag")
    set_up_position(page)
    page.fill("#f-fen", "4k3/8/8/8/8/8/8/4K2R b K - 0 1")
    page.check('input[name="claimant"][value="white"]', force=True)
    page.fill("#f-clock_white", "0:01:10")
    page.fill("#f-clock_black", "0:00:20")
    page.click("#claim-submit")
    page.wait_for_selector("#flagged-error")
