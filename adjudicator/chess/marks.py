"""What the splitter notes about a record's structure (:mod:`adjudicator.chess.movetext`), in an arbiter's words.

- A result written before the last move, with the numbered moves going on after it (``½``, ``1/2``,
  ``1-0``): the moves are the game's; ``½`` is a draw offer in some scoresheet habits and a result
  in others, a decisive result means the later moves came after the game's end. Either way it
  conflicts with the moves after it, and the arbiter sees it.
- FIDE's ``(=)`` is a draw offer (9.1.2.2: each player notes the offer on the scoresheet with the symbol of
  Appendix C.13).
- A game of tags alone: tags, two blank lines, tags (python-chess reads two games).

No I/O.
"""

from __future__ import annotations

HEADERS_ONLY_NOTE = (
    "two blank lines after this game's tag pairs, then a new tag pair: the game has tags and no moves, and "
    "the tags after it are the next game's (python-chess reads them so)"
)
HEADERS_REPEATED_NOTE = (
    "this game's tag pairs, then one it has already ({name}): the game has tags and no moves (a game not played, "
    "or its moves left out), and the tags from there are the next game's (python-chess reads the two as one game "
    "and loses the first)"
)
_DRAW_OFFER = (
    "(=) is the mark of a draw offer (FIDE 9.1.2.2, Appendix C.13): {where}; the game went on, so it was not "
    "accepted"
)
_RESULT_MARK = (
    "{token} is written {where}, and the numbered moves go on after it: {reading} A result before the last move "
    "conflicts with the moves after it: the arbiter checks the scoresheet"
)
_HALF = ("1/2", "½")


def _where(plies: int, last: str) -> str:
    return f"after ply {plies} ({last})" if plies else "before the first move"


def draw_offer_note(plies: int, last: str) -> str:
    """The note for ``(=)`` written after ``plies`` moves, the last written ``last``."""
    return _DRAW_OFFER.format(where=_where(plies, last))


def result_mark_note(token: str, plies: int, last: str) -> str:
    """The note for a result ``token`` written after ``plies`` moves (the last ``last``) with moves after it."""
    if token in _HALF:
        reading = ("a draw offer in some scoresheet habits (FIDE writes an offer (=), Appendix C.13), a result "
                   "(a draw agreed) in others; the moves are read as the game's.")
    else:
        reading = ("read as a result, the game ended there and the moves after it were played after its end; "
                   "the moves are read as the game's.")
    return _RESULT_MARK.format(token=token, where=_where(plies, last), reading=reading)


def continues(number: str | None) -> bool:
    """Whether a move number written after a result goes on with the game (any but White's ``1.``, which starts
    the next game)."""
    if number is None:
        return False
    digits = number.rstrip(".… \t")
    return digits.isdigit() and not (int(digits) == 1 and number.count(".") == 1 and "…" not in number)
