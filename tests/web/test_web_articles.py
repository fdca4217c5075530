"""Each article a ruling cites gets a one-line summary, from the most specific article known."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.rulebook.articles import FIDE, LOCAL_RULES, RULEBOOKS
from web.articles import summary

UNKNOWN = "See the event's rules for this article."


@pytest.mark.parametrize(
    ("reference", "words"),
    [
        ("FIDE 9.2.2", "just appeared for at least the third time"),
        ("FIDE 9.2.3.1", "en passant"),
        ("FIDE 6.9", "cannot mate by any series of legal moves"),
        ("FIDE Guidelines III.5.2", "postpones"),
        ("US Chess 14E2", "K+B or K+N"),
        ("US Chess Variation 14H2a", "delay clock"),
        ("US Chess 11D1", "2 minutes"),
        ("ACF WCDF 2008 draw rule (b), forty moves", "40 moves"),
        ("ACF tournament rules (time forfeit)", "flag falls loses"),
        ("ACF Master Division local rules (Lowder Rule)", "one minute"),
        ("ACF Master Division local rules (games not started 30 minutes before the end of the round)", "drawn"),
        ("FIDE Guidelines III.2.1", "announced"),
        ("FIDE 8.1", "records the moves made"),  # a two-way token's reading (adjudicator.chess.replay)
    ],
)
def test_a_cited_article_has_its_summary(reference: str, words: str) -> None:
    assert words in summary(reference)


def test_an_unknown_article_says_where_to_look() -> None:
    assert summary("FIDE 99.9") == UNKNOWN


def test_a_reference_without_an_authority_is_its_own_summary() -> None:
    assert summary("event regulations (adjudication of unfinished games; not part of the Laws)") == ""


@pytest.mark.parametrize(
    ("reference", "condition"), [("FIDE 5.2.2", "If no series"), ("US Chess 14E", "if the opponent")]
)
def test_an_article_cited_where_it_did_not_apply_reads_as_a_condition(reference: str, condition: str) -> None:
    """A 1-0 adjudication cites 5.2.2 because the position was found not dead: the summary must not read as
    "the game is a draw"."""
    assert condition in summary(reference)


def test_every_article_the_rulesets_cite_has_a_summary() -> None:
    """Each reference the rulesets of config.toml name, and each the claims name, says what it holds."""
    root = Path(__file__).resolve().parents[2]
    texts = [(root / "config.toml").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in (root / "adjudicator").rglob("*.py")]
    refs = {m.group(1) for t in texts for m in re.finditer(r'"((?:FIDE|US Chess|ACF) [^"\n]{1,90})"', t)}
    not_articles = r"(FIDE Laws|US Chess Official|US Chess has|ACF (34|ballot|boards|National))"  # names, sentences
    cited = {r for r in refs if not re.match(not_articles, r)}
    assert cited
    assert {r for r in cited if summary(r) == UNKNOWN} == set()


def test_the_summaries_are_the_rulebooks_own_words() -> None:
    """One source: each indexed article and each local rule reads as the domain's index words it
    (adjudicator.rulebook.articles), cited with or without its "Guidelines"/"Variation" word."""
    for name, rulebook in RULEBOOKS.items():
        for article, text in rulebook.articles.items():
            assert summary(f"{name} {article}") == text
        for rule_name, text in LOCAL_RULES.get(name, {}).items():
            assert summary(f"{name} {rule_name}") == text
    assert summary("FIDE III.5.2") == summary("FIDE Guidelines III.5.2") == FIDE.articles["Guidelines III.5.2"]
    assert summary("US Chess 14H2a") == summary("US Chess Variation 14H2a") == (
        "Claim unclear: a delay clock; the claimant keeps half of his time.")
