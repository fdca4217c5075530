"""Each article a ruling cites gets a one-line summary, from the most specific article known."""

from __future__ import annotations

import pytest

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
    ],
)
def test_a_cited_article_has_its_summary(reference: str, words: str) -> None:
    assert words in summary(reference)


def test_an_unknown_article_says_where_to_look() -> None:
    assert summary("FIDE 99.9") == UNKNOWN


def test_a_reference_without_an_authority_is_its_own_summary() -> None:
    assert summary("event regulations (adjudication of unfinished games; not part of the Laws)") == ""
