"""The helpmate kernel's tables (:mod:`.kernel`): the bitboard tables it shares with the record reader.

They live in :mod:`adjudicator.chess.bitboard_tables`, where the compiled record reader
(:mod:`adjudicator.chess.bulk.scan`) builds its board from them too.
"""

from __future__ import annotations

from adjudicator.chess.bitboard_tables import (
    BETWEEN,
    BIT_INDEX,
    CASTLE_MASK,
    KING_ATT,
    KNIGHT_ATT,
    KNIGHT_DIST,
    LINE,
    PAWN_ATT,
    RAY,
    ZOB,
)

__all__ = ["BETWEEN", "BIT_INDEX", "CASTLE_MASK", "KING_ATT", "KNIGHT_ATT", "KNIGHT_DIST", "LINE", "PAWN_ATT", "RAY",
           "ZOB"]
