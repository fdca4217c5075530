"""The unwinnability analysis (FIDE 6.9, A.5.3, B.3 and the dead position of 5.2.2).

Can a side checkmate by any series of legal moves? :class:`UnwinnabilityAnalyser`
answers with a proof (unwinnable), a helpmate that replays to mate (winnable),
or "undecided" when its budget runs out.
"""

from .analyser import DeadPosition, PositionError, UnwinnabilityAnalyser, check_position, replays_to_mate
from .blockade import Reachability
from .blocked import is_blockade_unwinnable
from .material import is_material_unwinnable, needs_loser_promotion

__all__ = [
    "DeadPosition",
    "PositionError",
    "Reachability",
    "UnwinnabilityAnalyser",
    "check_position",
    "is_blockade_unwinnable",
    "is_material_unwinnable",
    "needs_loser_promotion",
    "replays_to_mate",
]
