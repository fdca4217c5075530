"""A claim is named once (adjudicator/claim_registry.py) and every list that names claims agrees with it
(issue 24): a claim without a form label once disappeared from the form without a word."""

from __future__ import annotations

import re

from adjudicator.checkers.claims.table import CLAIMS as CHECKERS
from adjudicator.chess.claims.table import CLAIMS as CHESS
from adjudicator.claim_registry import ASKED_BY_NAME, BY_ID, FACT_GROUPS, IN_FORM_ORDER, REGISTRY
from adjudicator.contract import CLAIMS
from adjudicator.requirements import CLAIMANT_ALWAYS, CLAIMANT_NEEDED
from web.claims.forms import CLAIM_LABELS, NEEDS, claims_for
from web.config import PROJECT_ROOT


def test_every_claim_of_the_contract_is_in_the_registry_and_no_other() -> None:
    assert tuple(claim.id for claim in REGISTRY) == CLAIMS and len(BY_ID) == len(REGISTRY)


def test_every_claim_a_game_rules_on_is_in_the_registry_and_every_registered_claim_is_ruled_on() -> None:
    assert set(CHESS) | set(CHECKERS) == set(BY_ID)


def test_every_claim_has_a_label_its_facts_and_its_claimant_rule() -> None:
    for claim in REGISTRY:
        assert claim.label.strip() and CLAIM_LABELS[claim.id] == claim.label, claim.id
        assert claim.needs and set(claim.needs) <= set(FACT_GROUPS) and NEEDS[claim.id] == claim.needs, claim.id
        assert (claim.id in CLAIMANT_NEEDED) == (claim.claimant != "not-asked"), claim.id
        assert (claim.id in CLAIMANT_ALWAYS) == (claim.claimant == "always"), claim.id
    assert sorted(c.form_place for c in REGISTRY) == list(range(len(REGISTRY)))  # one place each
    assert list(CLAIM_LABELS) == [c.id for c in IN_FORM_ORDER]


def test_the_form_offers_every_claim_of_each_game() -> None:
    assert set(claims_for("chess")) == set(CHESS) and set(claims_for("checkers")) == set(CHECKERS)


def test_every_fact_group_is_a_part_of_the_claim_form() -> None:
    """Each group is asked for by the form's template or its views (``needs("...")``); the one-field facts
    (``ASKED_FACTS``) by the template's one loop over ``form.asked_facts``, and by nothing else."""
    web = PROJECT_ROOT / "web"
    paths = [*(web / "templates" / "claims").glob("*.html"), *(web / "claims").glob("*.py")]
    shown = {m for path in paths for m in re.findall(r"needs\(['\"](\w+)['\"]\)", path.read_text())}
    template = (web / "templates" / "claims" / "_form.html").read_text()
    assert "{% for fact in form.asked_facts %}" in template
    assert shown | set(ASKED_BY_NAME) == set(FACT_GROUPS) and not shown & set(ASKED_BY_NAME)
