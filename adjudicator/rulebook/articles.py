"""The article index of each rulebook: every article a ruling may cite, with a one-line summary.

A ruling cites ``"<rulebook> <article>"`` (:meth:`adjudicator.rulebook.common.Ruleset.ref`): the
rulebook is the ruleset's ``laws`` (ICCF plays under the FIDE Laws where they apply, ICCF Playing
Rules 1a), else its ``authority``. A reference is the ruleset's own when it names an article of that
rulebook's index here, or a rule the ruleset's configuration declares itself (local rules: the
``flag.refs`` articles, the committee's article, the adjudication basis, an engine event's rules
document with its option, the ICCF tablebase-claim rule, ``incorrect_claim.article``).

A fact one rulebook has an article for and another does not is cited from the rulebook that has
it, never with another rulebook's number: US Chess has no "5.2.2" (its dead-position rule is 14D),
no "7.5.3" and no "9.6.2" (14K). :func:`article_for` names each fact's article per rulebook.
tests/test_rule_refs.py rules every claim under every ruleset of config.toml and checks each cited
article against this index.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adjudicator.rulebook.common import Ruleset


@dataclass(frozen=True)
class Rulebook:
    """One rulebook's articles: article (as cited after the rulebook's name) -> one-line summary."""

    name: str
    title: str
    articles: Mapping[str, str]

    def __contains__(self, article: object) -> bool:
        return article in self.articles


FIDE = Rulebook("FIDE", "FIDE Laws of Chess (in force from 1 January 2023)", {
    "1.1": "The game of chess is played between two opponents on a chessboard (variants are not covered).",
    "4.3": "Touch-move: a player who deliberately touches his own piece must move it, if it can be moved.",
    "4.4.3": "Touching the king and a rook: castle if legal; otherwise a legal move with the king.",
    "5.1.1": "Checkmate ends the game at once, provided the mating move was legal.",
    "5.1.2": "A resignation is a draw if the opponent could not mate by any series of legal moves.",
    "5.2.1": "Stalemate ends the game as a draw.",
    "5.2.2": "If no series of legal moves can mate (a dead position), the game is drawn at once.",
    "6.4": "After a flag fall, check that the required number of moves was completed.",
    "6.8": "A flag counts as fallen when the arbiter observes it or a player makes a valid claim.",
    "6.9": "A flag fall loses, unless the opponent cannot mate by any series of legal moves: then a draw.",
    "6.11": "The arbiter may pause the clocks.",
    "7.1": "Irregularities: reinstate the position; the arbiter sets the clocks by best judgement.",
    "7.5": "Illegal move: reinstate the position before it; penalties follow 7.5.5.",
    "7.5.1": "Reinstate the position immediately before the illegal move; touch-move applies.",
    "7.5.2": "A promotion without replacing the pawn counts as an illegal move (the pawn becomes a queen).",
    "7.5.3": "Pressing the clock without making a move counts as an illegal move.",
    "7.5.4": "Using two hands for one move counts as an illegal move.",
    "7.5.5": "First completed illegal move: +2 min to the opponent; the second loses (draw if no mate possible).",
    "8.1": "The scoresheet: each player records the moves made, both players', as they are made.",
    "8.1.1": "Each player records the moves of both players, move after move, correctly and legibly.",
    "8.4": "Under 5 minutes and without a 30 s increment a player need not record the moves.",
    "9.1.1": "Event regulations may forbid draw offers before a set move.",
    "9.1.2": "A draw offer: made after a move and before pressing the clock; it cannot be withdrawn.",
    "9.1.2.2": "Each player notes a draw offer on the scoresheet with the symbol (=) (Appendix C.13).",
    "9.1.2.3": "A claim under 9.2 or 9.3 is also a draw offer.",
    "9.2": "Threefold repetition: the player on move may claim a draw.",
    "9.2.1": "Claim with a written, unchangeable move that will repeat the position a third time.",
    "9.2.2": "Claim when the same position has just appeared for at least the third time.",
    "9.2.3": "Positions are the same: same side to move, same pieces on the same squares, same possible moves.",
    "9.2.3.1": "A position differs if an en passant capture was possible at the start of the sequence.",
    "9.2.3.2": "A position differs if castling rights were lost in between.",
    "9.3": "Fifty-move rule: the player on move may claim after 50 moves each without a pawn move or capture.",
    "9.3.1": "Claim with a written move that will complete the 50 moves.",
    "9.3.2": "Claim when the last 50 moves by each player had no pawn move and no capture.",
    "9.4": "Touching a piece with intent to move it loses the right to claim on that move.",
    "9.5": "Claims: the clock is paused, a claim cannot be withdrawn.",
    "9.5.2": "A correct claim draws the game at once.",
    "9.5.3": "An incorrect claim: +2 min to the opponent (1 min in rapid and blitz) and play continues.",
    "9.6": "Fivefold repetition or 75 moves without pawn move or capture draw the game without a claim.",
    "9.6.1": "The same position for at least the fifth time draws the game.",
    "9.6.2": "75 moves by each player without a pawn move or capture draw the game (mate takes precedence).",
    "11.12": "Checking a threefold or 50-move claim is the players' duty, under the arbiter's supervision.",
    "12.9": "The arbiter's penalties: warning, time added or deducted, score changes, loss, expulsion.",
    "A.2": "Rapid: players need not record the moves but keep the claims a scoresheet normally supports.",
    "A.3": "Rapid: the penalties of Articles 7 and 9 are one minute instead of two.",
    "A.4": "Rapid with adequate supervision: the Competition Rules apply.",
    "A.5": "Rapid without adequate supervision: the players claim; the arbiter acts on what he sees.",
    "A.5.2": "Unsupervised rapid: an illegal move is corrected only before the opponent's next move.",
    "A.5.3": "Unsupervised rapid: a flag claim is a draw if the claimant cannot mate.",
    "A.5.4": "Unsupervised rapid: both kings in check or a pawn on the last rank draws after the next move.",
    "A.5.5": "Unsupervised rapid: the arbiter also calls a flag he observes.",
    "B.2": "Blitz with one arbiter per game: the Competition Rules apply.",
    "B.3": "Blitz otherwise: A.2, A.3 and A.5 apply.",
    "C.3": "Players may use the piece letters of their own language on the scoresheet.",
    "Guidelines III.2.1": "Guidelines III apply only if announced before the event.",
    "Guidelines III.2.2": "Guidelines III apply to standard and rapid games without increment, never to blitz.",
    "Guidelines III.3.1": "Both flags down, order unknown: play goes on, or a draw in the last period.",
    "Guidelines III.4": "Under 2 minutes: a player may ask for a 5 s increment for both; the opponent gets +2 min.",
    "Guidelines III.5": "Under 2 minutes: claim a draw because the opponent cannot win by normal means.",
    "Guidelines III.5.1": "The arbiter agrees: the game is drawn.",
    "Guidelines III.5.2": "The arbiter postpones: the opponent may get +2 min; the result is given later.",
    "Guidelines III.5.3": "The arbiter rejects: the opponent gets +2 min.",
    "Guidelines III.6": "Unsupervised events: a claim under 2 minutes ends the game and goes to the arbiter.",
})

US_CHESS = Rulebook("US Chess", "The US Chess Federation's Official Rules of Chess (7th edition, 2024 updates)", {
    "1C2a": "Standard penalty: 2 minutes added to the opponent's clock.",
    "1C2b": "The TD may give a lighter or heavier penalty.",
    "5E": "Delay clocks: the recommended delay and the standard timer.",
    "5F": "Increment clocks: the recommended increment.",
    "9G1": "A claim stays in order between deciding on a move and completing it.",
    "10": "The touched piece: a player who touches a piece meaning to move it must move it, if legal.",
    "11A": "An illegal move among the last ten moves: reinstate the position before it.",
    "11B": "An illegal move found earlier than the last ten moves stands.",
    "11D": "Illegal move penalty: 2 minutes to the opponent, when claimed before his next move.",
    "12A": "Checkmate ends the game at once.",
    "13C1": "Only the players may claim a time forfeit; the claimant needs mating material.",
    "14A": "Stalemate ends the game as a draw.",
    "14B3": "A draw offer stands until accepted, declined or withdrawn by a move.",
    "14C": "Triple occurrence: the player on move may claim a draw.",
    "14C2": "Write the repeating move without playing it, stop the clocks and claim.",
    "14C4": "A player who made the move but did not press the clock keeps the right to claim.",
    "14C8": "Under 5 minutes in sudden death, the draw may be awarded on the TD's observation.",
    "14C9": "The claimant's scoresheet must be adequate to show the claim; the opponent's may be borrowed.",
    "14D": "Insufficient material to continue: the game is drawn.",
    "14E": "Insufficient material to win on time: a flag fall is a draw if the opponent cannot mate.",
    "14E1": "The opponent has only a lone king: a draw.",
    "14E2": "The opponent has only K+B or K+N and no forced win: a draw.",
    "14E3": "The opponent has K+N+N, no forced win, and the flagged player has no pawn: a draw.",
    "14F": "Fifty-move rule: the player on move may claim after 50 moves each without capture or pawn move.",
    "14F4": "In sudden death the TD or a deputy may count the moves when scoresheets are not kept.",
    "14G2": "Both flags down in the final control and no claim: the TD may declare a draw.",
    "14H": "Insufficient losing chances: not available in sudden death under the baseline rules.",
    "Variation 14H": "Insufficient losing chances may be claimed in sudden death without delay or increment.",
    "Variation 14H1": "On the move with 2 minutes or less, without delay or increment, claim ILC.",
    "Variation 14H2": "The TD may place a delay clock (claimant's time halved), rule a draw, or reject the claim.",
    "Variation 14H2a": "Claim unclear: a delay clock; the claimant keeps half of his time.",
    "Variation 14H2b": "No delay clock available: the TD may rule or postpone.",
    "Variation 14H2c": "Claim clearly correct: a draw.",
    "Variation 14H2d": "Claim clearly incorrect: rejected, with a possible time deduction.",
    "14K": "The TD may declare a draw after five repetitions or 75 moves without progress.",
    "15A": "Each player records the moves, both players', legibly, correctly and completely.",
    "15B": "Under 5 minutes (not sudden death) both players are excused from keeping score.",
    "15C": "Under 5 minutes in sudden death both players are excused from keeping score.",
})

ACF = Rulebook("ACF", "American Checker Federation: Standard Laws, 2016 national rules (WCDF 2008)", {
    "Standard Laws, improper moves": "An improper move is corrected; the position before it is restored.",
    "Standard Laws, forty-move count": "On the weaker side's request the stronger side must win or show a "
    "decided advantage within 40 of its moves, or the game is a draw.",
    "WCDF 2008 draw rule (a), third repetition": "The player shows that his next move makes the same position "
    "for the third time: a draw.",
    "WCDF 2008 draw rule (b), forty moves": "In each player's last 40 moves no man advanced and nothing was "
    "captured: a draw.",
    "national rules: adjudication committee": "A committee adjudicates unfinished games.",
    "tournament rules (time forfeit)": "A player whose flag falls loses the game.",
    "tournament rules (both flags down)": "Both flags down: the event's rules decide (commonly a draw).",
    "tournament rules (recording the game)": "Each player keeps a record of the moves; the count rests on it.",
})

RULEBOOKS: Mapping[str, Rulebook] = {book.name: book for book in (FIDE, US_CHESS, ACF)}
"""Every rulebook, by the name its references start with."""

LOCAL_RULES: Mapping[str, Mapping[str, str]] = {
    "ACF": {
        "Master Division local rules, adjudication": "A committee of three adjudicates unfinished games; a win "
        "needs a unanimous vote.",
        "forty-move": "Forty moves each without a man move or a capture: a draw may be claimed.",
        "repetition": "The same position for the third time: a draw may be claimed.",
        "flag": "A flag fall forfeits the game (in the Master Division, the next game of the match too).",
        "Master Division local rules (flag fall forfeits the current and the next game)": "A flag fall "
        "forfeits the current game and the next game of the match.",
        "Master Division local rules (Lowder Rule)": "Near the end of the round each move must be made within "
        "one minute, with a 10-second warning.",
        "Master Division local rules (games not started 30 minutes before the end of the round)": "A game not "
        "started 30 minutes before the end of the round is drawn.",
    },
}
"""Rules cited after a rulebook's name that are not articles of its index, with their one-line summaries: the
local rules a ruleset's configuration declares (config.toml, :func:`declared`) and the short names a ruling
kept from before the index cites (``ACF forty-move``). Not in the index: :func:`problem` accepts a local rule
only where the ruleset declares it."""

FACTS: Mapping[str, Mapping[str, str]] = {
    "checkmate": {"FIDE": "5.1.1", "US Chess": "12A"},
    "stalemate": {"FIDE": "5.2.1", "US Chess": "14A"},
    "dead-position": {"FIDE": "5.2.2", "US Chess": "14D"},
    "fivefold": {"FIDE": "9.6.1", "US Chess": "14K"},
    "seventy-five-moves": {"FIDE": "9.6.2", "US Chess": "14K"},
    "reinstate": {"FIDE": "7.5.1", "US Chess": "11A", "ACF": "Standard Laws, improper moves"},
    "no-move": {"FIDE": "7.5.3"},
    "touch-move": {"FIDE": "4.3", "US Chess": "10"},
    "clocks-after-irregularity": {"FIDE": "7.1"},
    "flag": {"FIDE": "6.9", "US Chess": "13C1", "ACF": "tournament rules (time forfeit)"},
    "scoresheets": {"US Chess": "14C9", "ACF": "tournament rules (recording the game)"},
}
"""The article each rulebook has for a fact the rulings state; a rulebook missing from a fact has none."""


def rulebook_name(ruleset: Ruleset) -> str:
    """The rulebook the ruleset's articles are numbered in: its ``laws``, else its ``authority``."""
    return ruleset.laws or ruleset.authority


def rulebook_of(ruleset: Ruleset) -> Rulebook | None:
    """The ruleset's rulebook index (None: a rulebook this project has no index of)."""
    return RULEBOOKS.get(rulebook_name(ruleset))


def article_for(ruleset: Ruleset, fact: str) -> str | None:
    """The reference for ``fact`` in the ruleset's rulebook (``FIDE 5.2.2``, ``US Chess 14D``); None: it has none."""
    article = FACTS[fact].get(rulebook_name(ruleset))
    return None if article is None else ruleset.ref(article)


def declared(ruleset: Ruleset) -> tuple[str, ...]:
    """The references the ruleset's configuration declares itself (its local rules; module docstring)."""
    found: list[str] = [ruleset.ref(ruleset.committee.article)]
    for section in ("flag", "adjudication", "incorrect_claim", "ilc", "lowder"):
        table = getattr(ruleset, section, None)
        if table is None:
            continue
        refs = getattr(table, "refs", None)
        if refs is not None:
            found += [value for value in refs.table().values() if isinstance(value, str)]
        for name in ("basis", "event_rules", "claim_ref", "ref"):
            value = getattr(table, name, None)
            if isinstance(value, str):
                found.append(value)
        article = getattr(table, "article", None)
        if isinstance(article, str):
            found.append(ruleset.ref(article))
    return tuple(dict.fromkeys(found))


def problem(ruleset: Ruleset, reference: str) -> str | None:
    """Why ``reference`` is not an article of the ruleset's rulebook nor one it declares; None: it is."""
    own = declared(ruleset)
    if reference in own or any(reference.startswith(f"{d} -") for d in own):  # an engine event's option
        return None
    name = rulebook_name(ruleset)
    book = RULEBOOKS.get(name)
    if book is None:
        return f"{reference!r}: the project has no article index of the {name} rulebook"
    if not reference.startswith(f"{name} "):
        return f"{reference!r} does not name an article of the {book.title} ({name})"
    article = reference[len(name) + 1:]
    if article not in book:
        return f"{reference!r}: {article!r} is not an article of the {book.title}"
    return None


def summaries() -> Iterator[tuple[str, str]]:
    """Every indexed reference and its summary (``FIDE 9.2.2``, ...); the local rules are :data:`LOCAL_RULES`."""
    for book in RULEBOOKS.values():
        for article, text in book.articles.items():
            yield f"{book.name} {article}", text
