"""The claim form drawn as a page or a fragment, under the chosen ruleset's offer: shared by the claim
form's routes (:mod:`web.claims.views`) and the broadcast's, which fill the same form from a live game
(:mod:`web.broadcast.views`)."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template, session, url_for

from web import submit
from web.claims.editors import checkers_editor
from web.claims.forms import CLAIM_LABELS, GAME_LABELS, PREVIOUS_ILLEGAL, ClaimForm, claims_for, side_label
from web.claims.offers import Offer, offer_for
from web.db import get_session
from web.events.access import rulable_events
from web.events.actors import current_actor
from web.htmx import is_htmx
from web.players import names_mismatch
from web.tables.events import DEFAULT_SLUG

EVENT_FIELD = "event_slug"
"""The form's choice of event (issue 11): which of the events the user rules in this claim belongs to."""


def default_ruleset(game: str) -> str:
    configured = str(current_app.config["ADJUDICATOR"].get("web", {}).get("default_ruleset", "fide-standard"))
    rulesets = rulesets_for(game)
    if any(r["id"] == configured for r in rulesets):
        return configured
    return rulesets[0]["id"] if rulesets else configured


def rulesets_for(game: str) -> list[dict[str, str]]:
    return [{"id": r.id, "title": r.title} for r in submit.book() if r.game == game]


def ruleset_offer(game: str, ruleset_id: str) -> Offer:
    """What the form offers under ``ruleset_id`` (a ruleset of another game, or none: the game's default)."""
    known = {r["id"] for r in rulesets_for(game)}
    found = submit.book()[ruleset_id if ruleset_id in known else default_ruleset(game)]
    return offer_for(found, claims_for(game), CLAIM_LABELS)


def settle_offer(claim_form: ClaimForm) -> None:
    """The ruleset's offer on the form (:mod:`web.claims.offers`), and its time control where none was given."""
    claim_form.offer = ruleset_offer(claim_form.game, claim_form.value("ruleset"))
    if claim_form.offer.time_control and "time_control" not in claim_form.values:
        claim_form.values["time_control"] = claim_form.offer.time_control


def render_form(claim_form: ClaimForm, status: int = 200) -> tuple[str, int]:
    game = claim_form.game
    rulesets = rulesets_for(game)
    if claim_form.value("ruleset") not in {r["id"] for r in rulesets}:
        claim_form.values["ruleset"] = default_ruleset(game)
    settle_offer(claim_form)
    offer = claim_form.offer
    assert offer is not None
    context: dict[str, Any] = {
        "form": claim_form,
        "offer": offer,
        "games": GAME_LABELS,
        "claims": [(c, offer.labels.get(c, CLAIM_LABELS[c])) for c in claim_form.claims],
        "rulesets": rulesets,
        "side_label": side_label,
        "editor": checkers_editor(claim_form.value("fen"), record=claim_form.value("record"),
                                  flipped=bool(claim_form.value("checkers_flipped")),
                                  piece=claim_form.value("checkers_piece", "r"), url=url_for("claims.redraw"),
                                  target="#claim-form") if game == "checkers" else None,
        "events": rulable_events(get_session(), current_actor()),
        "findings": claim_form.findings,
        "requests": claim_form.requests,
        "event_slug": claim_form.value(EVENT_FIELD) or session.get(EVENT_FIELD) or DEFAULT_SLUG,
        "previous_illegal": PREVIOUS_ILLEGAL,
        "names_mismatch": _names_mismatch(claim_form),
    }
    template = "claims/_form.html" if is_htmx() else "claims/new.html"
    return render_template(template, **context), status


def _names_mismatch(claim_form: ClaimForm) -> tuple[str, str] | None:
    if not claim_form.needs("position"):
        return None
    return names_mismatch(claim_form.game, claim_form.value("record"), claim_form.value("first_player"),
                          claim_form.value("second_player"))
