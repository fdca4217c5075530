"""One-line summaries of the articles a ruling cites, for the ruling page and the sheet.

A reference is "<authority> <article>" as the ruleset names it (``FIDE 9.2.2``). The
summary of the most specific article known is shown (``9.2.2`` → ``9.2`` → ``9``).
"""

from __future__ import annotations

from adjudicator.rulebook.articles import summaries

INDEXED: dict[str, str] = dict(summaries())
"""Every article of every rulebook's index, by its reference (``US Chess 14D``)."""

SUMMARIES: dict[str, dict[str, str]] = {
    "FIDE": {
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
        "12.9": "The arbiter's penalties: warning, time added or deducted, score changes, loss, expulsion.",
        "A.3": "Rapid: the penalties of Articles 7 and 9 are one minute instead of two.",
        "A.4": "Rapid with adequate supervision: the Competition Rules apply.",
        "A.5": "Rapid without adequate supervision: the players claim; the arbiter acts on what he sees.",
        "A.5.2": "Unsupervised rapid: an illegal move is corrected only before the opponent's next move.",
        "A.5.3": "Unsupervised rapid: a flag claim is a draw if the claimant cannot mate.",
        "A.5.4": "Unsupervised rapid: both kings in check or a pawn on the last rank draws after the next move.",
        "B.2": "Blitz with one arbiter per game: the Competition Rules apply.",
        "B.3": "Blitz otherwise: A.2, A.3 and A.5 apply.",
        "III.2.1": "Guidelines III apply only if announced before the event.",
        "III.2.2": "Guidelines III apply to standard and rapid games without increment, never to blitz.",
        "III.3.1": "Both flags down, order unknown: play goes on, or a draw in the last period.",
        "III.4": "Under 2 minutes: a player may ask for a 5 s increment for both; the opponent gets +2 min.",
        "III.5": "Under 2 minutes: claim a draw because the opponent cannot win by normal means.",
        "III.5.1": "The arbiter agrees: the game is drawn.",
        "III.5.2": "The arbiter postpones: the opponent may get +2 min; the result is given later.",
        "III.5.3": "The arbiter rejects: the opponent gets +2 min.",
        "III.6": "Unsupervised events: a claim under 2 minutes ends the game and goes to the arbiter.",
    },
    "US Chess": {
        "12A": "Checkmate ends the game at once.",
        "14A": "Stalemate ends the game as a draw.",
        "1C2a": "Standard penalty: 2 minutes added to the opponent's clock.",
        "1C2b": "The TD may give a lighter or heavier penalty.",
        "15A": "Each player records the moves, both players', legibly, correctly and completely.",
        "11A": "An illegal move among the last ten moves: reinstate the position before it.",
        "11B": "An illegal move found earlier than the last ten moves stands.",
        "11D": "Illegal move penalty: 2 minutes to the opponent, when claimed before his next move.",
        "13C1": "Only the players may claim a time forfeit; the claimant needs mating material.",
        "14B3": "A draw offer stands until accepted, declined or withdrawn by a move.",
        "14C": "Triple occurrence: the player on move may claim a draw.",
        "14C2": "Write the repeating move without playing it, stop the clocks and claim.",
        "14C8": "Under 5 minutes in sudden death, the draw may be awarded on the TD's observation.",
        "14D": "Insufficient material to continue: the game is drawn.",
        "14E": "Insufficient material to win on time: a flag fall is a draw if the opponent cannot mate.",
        "14E1": "The opponent has only a lone king: a draw.",
        "14E2": "The opponent has only K+B or K+N and no forced win: a draw.",
        "14E3": "The opponent has K+N+N, no forced win, and the flagged player has no pawn: a draw.",
        "14F": "Fifty-move rule: the player on move may claim after 50 moves each without capture or pawn move.",
        "14G2": "Both flags down in the final control and no claim: the TD may declare a draw.",
        "14H": "Insufficient losing chances: not available in sudden death under the baseline rules.",
        "14H1": "Variation 14H: on the move with 2 minutes or less, without delay or increment, claim ILC.",
        "14H2": "The TD may place a delay clock (claimant's time halved), rule a draw, or reject the claim.",
        "14H2a": "Claim unclear: a delay clock; the claimant keeps half of his time.",
        "14H2c": "Claim clearly correct: a draw.",
        "14H2d": "Claim clearly incorrect: rejected, with a possible time deduction.",
        "14K": "The TD may declare a draw after five repetitions or 75 moves without progress.",
    },
    "ACF": {
        "WCDF 2008 draw rule (a), third repetition": "The player shows that his next move makes the same position "
        "for the third time: a draw.",
        "WCDF 2008 draw rule (b), forty moves": "In each player's last 40 moves no man advanced and nothing was "
        "captured: a draw.",
        "Standard Laws, forty-move count": "On the weaker side's request the stronger side must win or show a "
        "decided advantage within 40 of its moves, or the game is a draw.",
        "Standard Laws, improper moves": "An improper move is corrected; the position before it is restored.",
        "Master Division local rules, adjudication": "A committee of three adjudicates unfinished games; a win "
        "needs a unanimous vote.",
        "forty-move": "Forty moves each without a man move or a capture: a draw may be claimed.",
        "repetition": "The same position for the third time: a draw may be claimed.",
        "flag": "A flag fall forfeits the game (in the Master Division, the next game of the match too).",
        "tournament rules (time forfeit)": "A player whose flag falls loses the game.",
        "tournament rules (both flags down)": "Both flags down: the event's rules decide (commonly a draw).",
        "tournament rules (recording the game)": "Each player keeps a record of the moves; the count rests on it.",
        "Master Division local rules (flag fall forfeits the current and the next game)": "A flag fall "
        "forfeits the current game and the next game of the match.",
        "Master Division local rules (Lowder Rule)": "Near the end of the round each move must be made within "
        "one minute, with a 10-second warning.",
        "Master Division local rules (games not started 30 minutes before the end of the round)": "A game not "
        "started 30 minutes before the end of the round is drawn.",
    },
}


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
        for prefix in ("Art.", "Guidelines", "Variation"):
            article = article.removeprefix(prefix).strip()
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
