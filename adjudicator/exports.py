"""Carrying a ruling back into the event's files.

Two exports, both text the TD copies:

* the ruling as a comment on the game record (PGN for chess, PDN for checkers:
  both use ``{...}`` comments, the ``Result`` tag and a game termination marker);
* the result as TRF result codes (FIDE TRF16 / TRF-2026 player records, one
  code per player: ``1`` win, ``=`` draw, ``0`` loss for a game that was played;
  ``+``/``-`` for forfeits), to type into the pairing program.

An adjudicated game was played, so it takes the played-game codes.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.ruling import Result

FIRST_MOVER = {"chess": "white", "checkers": "red"}
SECOND_MOVER = {"chess": "black", "checkers": "white"}

_RESULT_TAG = re.compile(r'^\[Result\s+"[^"]*"\]\s*$', re.MULTILINE)
_TERMINATION = re.compile(r"(?:\s|^)(1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)\s*$")
_TAG_LINE = re.compile(r"^\s*\[\w+\s+\"[^\"]*\"\]\s*$")


class ExportError(ValueError):
    """A result that cannot be exported."""


def comment_text(text: str) -> str:
    """``text`` made safe inside a PGN/PDN ``{...}`` comment (no closing brace, one line)."""
    return " ".join(text.replace("}", ")").replace("{", "(").split())


def annotate_record(
    record: str | None,
    result: Result,
    comment: str,
    *,
    game: str = "chess",
    fen: str | None = None,
) -> str:
    """The game record with the ruling as a comment before its (new) result.

    The comment and result are added on lines of at most 79 characters (PGN export
    format); the moves are kept as written.

    The ``Result`` tag and the termination marker become ``result``; a record
    without a result gets one. With no record (only a position), a minimal
    record is made from ``fen`` (PGN ``SetUp``/``FEN`` tags; PDN ``FEN``).
    """
    if result not in ("1-0", "0-1", "1/2-1/2"):
        raise ExportError(f"result must be 1-0, 0-1 or 1/2-1/2, not {result!r}")
    note = "{" + comment_text(comment) + "}"
    text = (record or "").strip()
    if not text:
        header = [f'[Result "{result}"]']
        if fen:
            header += ['[SetUp "1"]', f'[FEN "{fen}"]'] if game == "chess" else [f'[FEN "{fen}"]']
        ending = textwrap.fill(f"{note} {result}", 79, break_long_words=False, break_on_hyphens=False)
        return "\n".join(header) + f"\n\n{ending}\n"
    lines = text.splitlines()
    head: list[str] = []
    while lines and (_TAG_LINE.match(lines[0]) or not lines[0].strip()):
        head.append(lines.pop(0))
    movetext = "\n".join(lines).rstrip()
    movetext = _TERMINATION.sub("", movetext).rstrip()
    tags = "\n".join(line for line in head if line.strip())
    if tags:
        if _RESULT_TAG.search(tags):
            tags = _RESULT_TAG.sub(f'[Result "{result}"]', tags)
        else:
            tags += f'\n[Result "{result}"]'
        tags += "\n\n"
    ending = textwrap.fill(f"{note} {result}", 79, break_long_words=False, break_on_hyphens=False)
    body = f"{movetext}\n{ending}" if movetext else ending
    return f"{tags}{body}\n"


@dataclass(frozen=True)
class TrfCodes:
    """The TRF result code each player gets, and the sentence for the TD."""

    codes: dict[str, str]
    """Side name → code (``{"white": "1", "black": "0"}``)."""
    sentence: str


def trf_codes(result: Result, *, game: str = "chess", reason: str = "by adjudication",
              forfeit: bool = False) -> TrfCodes:
    """TRF result codes for both players of a game with ``result``.

    TRF16 player records: ``1``/``=``/``0`` for a played game, ``+``/``-`` for a
    forfeit win/loss (a drawn forfeit does not exist).
    """
    first, second = FIRST_MOVER[game], SECOND_MOVER[game]
    if result == "1-0":
        codes = {first: "+" if forfeit else "1", second: "-" if forfeit else "0"}
    elif result == "0-1":
        codes = {first: "-" if forfeit else "0", second: "+" if forfeit else "1"}
    elif result == "1/2-1/2":
        if forfeit:
            raise ExportError("a forfeit cannot be drawn")
        codes = {first: "=", second: "="}
    else:
        raise ExportError(f"result must be 1-0, 0-1 or 1/2-1/2, not {result!r}")
    sentence = f"{result} {reason}: TRF code {codes[first]} for {first.title()}, {codes[second]} for {second.title()}"
    return TrfCodes(codes=codes, sentence=sentence)


def ruling_comment(result: Result, reasons: Sequence[str], rule_refs: Sequence[str], *, who: str) -> str:
    """One comment line: who decided, the result, the articles and the reasons."""
    refs = "; ".join(rule_refs)
    return f"{who}: {result}. " + " ".join(reasons) + (f" [{refs}]" if refs else "")


__all__ = ["ExportError", "TrfCodes", "annotate_record", "comment_text", "ruling_comment", "trf_codes"]
