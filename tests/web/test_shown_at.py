"""A refused form posted by htmx (a boosted form) is drawn on its page's own URL: the answer tells htmx
to put that URL in the address bar (``HX-Replace-Url``), never the URL posted to, which a refresh could
not open (one URL per resource; :func:`web.htmx.shown_at`). A plain form post gets no such header."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_nothing_typed_twice import ILC

BOOSTED = {"HX-Request": "true", "HX-Boosted": "true"}
FLAG = {"game": "chess", "ruleset": "fide-standard", "claim": "flag", "claimant": "white",
        "fen": "4k3/8/8/8/8/8/8/4K2R b K - 0 1", "clock_white": "0:01:10", "clock_black": "0:00:20"}


def test_a_refused_claim_is_shown_at_the_forms_url(client: FlaskClient) -> None:
    refused = client.post("/claims", data=FLAG, headers=BOOSTED)
    assert refused.status_code == 422 and refused.headers["HX-Replace-Url"] == "/claims/new"
    plain = client.post("/claims", data=FLAG)
    assert plain.status_code == 422 and "HX-Replace-Url" not in plain.headers


def test_a_refused_finding_is_shown_at_the_rulings_url(app: Flask, client: FlaskClient) -> None:
    ruling = client.post("/api/v1/rulings", json=ILC).json["id"]
    refused = client.post(f"/rulings/{ruling}/finding", data={"finding": "nonsense"}, headers=BOOSTED)
    assert refused.status_code == 422 and refused.headers["HX-Replace-Url"] == f"/rulings/{ruling}"


def test_a_redraw_says_nothing_about_the_address_bar(client: FlaskClient) -> None:
    redrawn = client.post("/claims/form", data=FLAG, headers={"HX-Request": "true"})
    assert redrawn.status_code == 200 and "HX-Replace-Url" not in redrawn.headers
