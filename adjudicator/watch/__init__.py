"""The arbiter's watch (issue 36): a live round read copy by copy, and what the laws ask of the arbiter.

No I/O: the caller reads the source (``web/watch``) and gives each copy's files to
:meth:`adjudicator.watch.round.Watcher.watch` with the previous :class:`~adjudicator.watch.round.WatchState`.
Dead positions are analysed through the :class:`adjudicator.services.MateOracle` protocol the caller offers.
"""

from adjudicator.watch.alerts import ACTIONS, KINDS, Alert, Finding
from adjudicator.watch.round import GameState, SourceFile, Watcher, WatchState

__all__ = ["ACTIONS", "KINDS", "Alert", "Finding", "GameState", "SourceFile", "WatchState", "Watcher"]
