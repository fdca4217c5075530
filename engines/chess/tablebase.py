"""Endgame tablebases: Syzygy (WDL and DTZ) and Gaviota (DTM), probed through python-chess.

Implements :class:`adjudicator.chess.analysis.TablebaseProber`. The set-up installs the
3- and 4-piece Syzygy tables from the ``chess`` source distribution into
``data/syzygy`` (``.ci/install.d/20-tablebases.sh``); ``[tablebases]`` in
config.toml adds any larger set a user has. Directories that do not exist are
skipped, so a machine without tables simply has no tablebase service.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import chess
import chess.syzygy

if TYPE_CHECKING:
    import chess.gaviota

from adjudicator.chess.analysis import TablebaseEvidence, TablebaseOutcome

_OUTCOMES: dict[int, TablebaseOutcome] = {2: "win", 1: "cursed-win", 0: "draw", -1: "blessed-loss", -2: "loss"}


def _dirs(paths: Sequence[str] | str, root: Path) -> list[Path]:
    if isinstance(paths, str):
        paths = [paths] if paths else []
    found = []
    for entry in paths:
        path = Path(entry).expanduser()
        if not path.is_absolute():
            path = root / path
        if path.is_dir():
            found.append(path)
    return found


class Tablebases:
    """Syzygy first (it knows the 50-move rule), Gaviota as a fallback for what Syzygy lacks."""

    def __init__(self, syzygy_dirs: Sequence[Path] = (), gaviota_dirs: Sequence[Path] = ()) -> None:
        self._lock = threading.Lock()
        self.syzygy_dirs = tuple(syzygy_dirs)
        self.gaviota_dirs = tuple(gaviota_dirs)
        self._syzygy: chess.syzygy.Tablebase | None = None
        self._gaviota: chess.gaviota.PythonTablebase | None = None
        self._gaviota_names: list[str] = []
        """The Gaviota tables found (python-chess opens them on first use; its module is imported then too:
        building its index tables takes a moment that a run probing nothing need not spend)."""
        self._max = 0
        if self.syzygy_dirs:
            tb = chess.syzygy.Tablebase()
            count = sum(tb.add_directory(str(d)) for d in self.syzygy_dirs)
            if count:
                self._syzygy = tb
                self._max = max(self._max, _largest(tb.wdl))
            else:
                tb.close()
        for d in self.gaviota_dirs:  # the names PythonTablebase.add_directory finds
            self._gaviota_names += [name.replace(".gtb.cp4", "") for name in fnmatch.filter(os.listdir(d), "*.gtb.cp4")]
        if self._gaviota_names:
            self._max = max(self._max, _largest(self._gaviota_names))

    @classmethod
    def from_config(cls, tablebases: Mapping[str, Any], root: Path) -> Tablebases:
        return cls(_dirs(tablebases.get("syzygy", []), root), _dirs(tablebases.get("gaviota", []), root))

    @property
    def max_pieces(self) -> int:
        return self._max

    @property
    def is_empty(self) -> bool:
        return self._syzygy is None and not self._gaviota_names

    def _gaviota_tables(self) -> chess.gaviota.PythonTablebase | None:
        """The Gaviota tables, opened on first use (call with the lock held)."""
        if self._gaviota is None and self._gaviota_names:
            from chess.gaviota import PythonTablebase

            gtb = PythonTablebase()
            for d in self.gaviota_dirs:
                gtb.add_directory(str(d))
            self._gaviota = gtb
        return self._gaviota

    def probe(self, board: chess.Board) -> TablebaseEvidence | None:
        """The tables' verdict for the side to move, or None when no table covers the position."""
        pieces = chess.popcount(board.occupied)
        if pieces > self._max or board.castling_rights or not board.is_valid():
            return None
        with self._lock:
            if self._syzygy is not None:
                with contextlib.suppress(KeyError, chess.syzygy.MissingTableError):
                    wdl = self._syzygy.probe_wdl(board)
                    dtz: int | None = None
                    with contextlib.suppress(KeyError, chess.syzygy.MissingTableError):
                        dtz = self._syzygy.probe_dtz(board)
                    return TablebaseEvidence(
                        source="syzygy", fen=board.fen(), pieces=pieces, outcome=_OUTCOMES[wdl],
                        dtz=dtz, halfmove_clock=board.halfmove_clock,
                    )
            gaviota = self._gaviota_tables()
            if gaviota is not None:
                from chess.gaviota import MissingTableError

                with contextlib.suppress(KeyError, MissingTableError):
                    dtm = gaviota.probe_dtm(board)
                    outcome: TablebaseOutcome = "win" if dtm > 0 else "loss" if dtm < 0 else "draw"
                    return TablebaseEvidence(
                        source="gaviota", fen=board.fen(), pieces=pieces, outcome=outcome,
                        dtm=dtm, halfmove_clock=board.halfmove_clock,
                    )
        return None

    def close(self) -> None:
        with self._lock:
            if self._syzygy is not None:
                self._syzygy.close()
                self._syzygy = None
            if self._gaviota is not None:
                self._gaviota.close()
                self._gaviota = None
            self._gaviota_names = []
            self._max = 0


def _largest(names: Mapping[str, Any] | Sequence[str] | Any) -> int:
    """Pieces in the largest table among names like ``KQvKR`` or ``kqkr``."""
    return max((len(str(name).replace("v", "")) for name in names), default=0)
