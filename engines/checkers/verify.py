"""A full consistency pass over the endgame database: every value agrees with its successors'.

For every position of every slice: lost if it has no move or every move leads to a
position won for the opponent; won if some move leads to a position lost for the
opponent; drawn otherwise. Distances too: a win is one ply longer than its fastest
winning move, a loss one ply longer than its slowest defence. This checks the
solver's propagation independently of how it reached the values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engines.checkers.build import DRAW, LOSS, WIN, Solved, unpack_at
from engines.checkers.index import U32, Codec, Slice, slices
from engines.checkers.moves import captures, has_capture, quiet_moves


@dataclass
class VerifyReport:
    positions: int = 0
    bad_values: int = 0
    bad_distances: int = 0
    examples: list[str] = field(default_factory=list)

    @property
    def is_consistent(self) -> bool:
        return self.bad_values == 0 and self.bad_distances == 0


CHUNK = 1 << 19
"""Positions checked at a time (bounds the memory for their moves)."""


def verify_slice(solved: Solved, s: Slice, report: VerifyReport) -> None:
    codec = Codec(s)
    for lo in range(0, codec.size, CHUNK):
        idx = np.arange(lo, min(lo + CHUNK, codec.size), dtype=np.int64)
        rm, rk, wm, wk, valid = codec.unrank(idx)
        vi = np.nonzero(valid)[0]
        _verify_positions(solved, s, idx[vi], rm[vi], rk[vi], wm[vi], wk[vi], report)


def _verify_positions(
    solved: Solved, s: Slice, vi: npt.NDArray[np.int64], rm: U32, rk: U32, wm: U32, wk: U32, report: VerifyReport
) -> None:
    own = unpack_at(solved.values[s], vi)
    own_d = solved.distances[s][vi].astype(np.int32)
    cap = has_capture(rm, rk, wm, wk)
    ps: list[npt.NDArray[np.int64]] = []
    vs: list[npt.NDArray[np.uint8]] = []
    ds: list[npt.NDArray[np.uint8]] = []
    ci = np.nonzero(cap)[0]
    p, *succ = captures(rm[ci], rk[ci], wm[ci], wk[ci])
    v, d = solved.lookup(*succ)
    ps.append(ci[p])
    vs.append(v)
    ds.append(d)
    qi = np.nonzero(~cap)[0]
    p, n_rm, n_rk, n_wm, n_wk, _ = quiet_moves(rm[qi], rk[qi], wm[qi], wk[qi])
    v, d = solved.lookup(n_rm, n_rk, n_wm, n_wk)
    ps.append(qi[p])
    vs.append(v)
    ds.append(d)
    p = np.concatenate(ps)
    v = np.concatenate(vs)
    d = np.concatenate(ds).astype(np.int32)
    n = len(vi)
    has_loss = np.bincount(p[v == LOSS], minlength=n) > 0
    has_draw = np.bincount(p[v == DRAW], minlength=n) > 0
    expected = np.where(has_loss, WIN, np.where(has_draw, DRAW, LOSS))
    win_d = np.full(n, 1 << 20, dtype=np.int32)
    np.minimum.at(win_d, p[v == LOSS], d[v == LOSS] + 1)
    loss_d = np.zeros(n, dtype=np.int32)
    np.maximum.at(loss_d, p, d + 1)
    capped_loss = np.where(expected == LOSS, np.minimum(loss_d, 255), 0)
    expected_d = np.where(expected == WIN, np.minimum(win_d, 255), capped_loss)
    bad = own != expected
    bad_d = ~bad & (own != DRAW) & (own_d != expected_d)
    report.positions += n
    report.bad_values += int(bad.sum())
    report.bad_distances += int(bad_d.sum())
    for i in np.nonzero(bad | bad_d)[0][: max(0, 5 - len(report.examples))]:
        report.examples.append(f"slice {s} index {int(vi[i])}: stored {int(own[i])}/{int(own_d[i])}, "
                               f"successors say {int(expected[i])}/{int(expected_d[i])}")


def verify(solved: Solved, max_pieces: int) -> VerifyReport:
    """Check every slice with 2..``max_pieces`` pieces."""
    report = VerifyReport()
    for pieces in range(2, max_pieces + 1):
        for s in slices(pieces):
            verify_slice(solved, s, report)
    return report
