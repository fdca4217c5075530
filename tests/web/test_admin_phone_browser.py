"""The admin pages on a 390x844 phone in Debian's Chromium (issue 35): /admin/ fits the screen (it was 410 px
wide, "Revoke tokens" one letter per line), its date fields are as tall as the others (they were 21 px), a
new user's password and token show whole with a Copy button, and revoking asks once. Screenshots in
tests/artifacts/admin-*.png."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from committee_support import add_user, make_app
from werkzeug.serving import make_server

from tests.web.conftest import PHONE
from tests.web.phone_support import check_page, log_in, phone_page, scroll_width

pytestmark = pytest.mark.browser

PASSWORD = "password-xxxx"
SPRING = {"slug": "spring", "name": "Spring Open", "starts": "2026-04-01", "ends": "2026-04-03",
          "ruleset": "fide-rapid", "visibility": "private", "access": "closed", "broadcast": ""}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    mp = pytest.MonkeyPatch()
    app = make_app(tmp_path_factory.mktemp("admin-phone"), mp, WTF_CSRF_ENABLED=True,
                   PASSWORD_HASH_METHOD="pbkdf2:sha256:1000")
    add_user(app, "ada", "admin", password=PASSWORD)
    for name, role in (("Tina Worthington-Smythe", "td"), ("m1", "committee"), ("april", "appeals")):
        add_user(app, name, role, password=PASSWORD, club="Hastings Chess Club")
    client = app.test_client()
    with client:
        app.config["WTF_CSRF_ENABLED"] = False
        assert client.post("/login", data={"name": "ada", "password": PASSWORD}).status_code == 303
        assert client.post("/admin/events/", data=SPRING).status_code == 303
        for name, role in (("Tina Worthington-Smythe", "td"), ("m1", "committee"), ("m1", "appeals")):
            assert client.post("/admin/events/spring/staff", data={"user": name, "role": role}).status_code == 303
        assert client.post("/admin/events/spring/tokens", data={"user": "m1"}).status_code == 200
        app.config["WTF_CSRF_ENABLED"] = True
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    app.extensions["adjudicator"].shutdown()
    mp.undo()


@pytest.fixture
def admin(browser: Any, site: str) -> Iterator[Any]:
    page = phone_page(browser)
    log_in(page, site, "ada", PASSWORD)
    yield page
    page.context.close()


def test_admin_fits_a_phone_and_a_new_user_s_password_and_token_show_whole(admin: Any, site: str) -> None:
    admin.goto(f"{site}/admin/")
    check_page(admin, site, "admin-index")
    admin.locator("#user-list summary:has-text('Revoke tokens')").first.tap()
    assert admin.locator("#user-list details.confirm[open] button.danger").first.is_visible(), "asks once"
    assert scroll_width(admin) <= PHONE["width"]
    admin.fill("#u-name", "Substitute Arbiter")
    admin.select_option("#u-role", "td")
    admin.locator("#add-user-button").tap()
    admin.wait_for_selector("#credentials-shown")
    check_page(admin, site, "admin-new-user")
    for field in ("#new-password", "#new-user-token"):
        whole = admin.evaluate("(s) => { const e = document.querySelector(s); "
                               "return e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1 }",
                               field)
        assert whole, f"{field} shown whole, not cut off"
        assert admin.locator(f'button[data-copy="{field}"]').is_visible(), "a Copy button where the script runs"


def test_the_event_pages_fit_a_phone_with_date_fields_of_normal_height(admin: Any, site: str) -> None:
    admin.goto(f"{site}/admin/events/")
    check_page(admin, site, "admin-events")  # every field 44 px high at least, the date fields too
    height = admin.evaluate("() => document.querySelector('#e-starts').getBoundingClientRect().height")
    assert height >= 44, f"the date field is {height} px high"
    admin.goto(f"{site}/admin/events/spring")
    check_page(admin, site, "admin-event")
