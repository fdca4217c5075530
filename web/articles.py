"""One-line summaries of the articles a ruling cites, for the ruling page and the sheet.

A reference is "<authority> <article>" as the ruleset names it (``FIDE 9.2.2``). The
summary of the most specific article known is shown (``9.2.2`` → ``9.2`` → ``9``). The words are
the domain's (:mod:`adjudicator.rulebook.articles`): each rulebook's index, and the local rules
cited after its name (:data:`~adjudicator.rulebook.articles.LOCAL_RULES`).
"""

from __future__ import annotations

from adjudicator.rulebook.articles import LOCAL_RULES, RULEBOOKS, summaries

INDEXED: dict[str, str] = dict(summaries())
"""Every article of every rulebook's index, by its reference (``US Chess 14D``)."""

PREFIXES = ("Art.", "Guidelines", "Variation")
"""Words an article's number may be cited with (``FIDE Guidelines III.5``, ``US Chess Variation 14H2``)."""


def _bare(article: str) -> str:
    for prefix in PREFIXES:
        article = article.removeprefix(prefix).strip()
    return article


def _articles(name: str) -> dict[str, str]:
    """The rulebook's summaries by article, its number without :data:`PREFIXES`, and its local rules."""
    found: dict[str, str] = {}
    for article, text in RULEBOOKS[name].articles.items():
        found.setdefault(_bare(article), text)
    found.update(LOCAL_RULES.get(name, {}))
    return found


SUMMARIES: dict[str, dict[str, str]] = {name: _articles(name) for name in RULEBOOKS}
"""Each rulebook's summaries by article, for a reference the index does not name exactly (``FIDE 9.2.2.1``)."""


def summary(reference: str) -> str:
    """The one-line summary for ``reference``, from the most specific article known.

    A reference that names no authority (``event regulations (...)``) is its own summary: "".
    The domain's article index (:mod:`adjudicator.rulebook.articles`) answers first.
    """
    indexed = INDEXED.get(reference)
    if indexed is not None:
        return indexed
    for authority, articles in SUMMARIES.items():
        if not reference.startswith(authority + " "):
            continue
        article = reference[len(authority) + 1 :].strip()
        if article in articles:
            return articles[article]
        article = _bare(article)
        parts = article.split(".")
        while parts:
            found = articles.get(".".join(parts))
            if found:
                return found
            parts.pop()
        for key in sorted(articles, key=len, reverse=True):  # "14H2b" -> "14H2", "11D1" -> "11D"
            if article.startswith(key) and len(key) >= 3:
                return articles[key]
        return "See the event's rules for this article."
    return ""
