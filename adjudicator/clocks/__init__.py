"""Clocks: time controls, clock histories rebuilt from records, and match clocks.

- :mod:`adjudicator.clocks.timecontrol`: periods, increments and delays as values;
- :mod:`adjudicator.clocks.notation`: reading PGN ``TimeControl`` and US notation;
- :mod:`adjudicator.clocks.history`: each side's clock rebuilt from ``[%clk]``/``[%emt]``
  and checked against the control;
- :mod:`adjudicator.clocks.flagfall`: the facts of a flag fall (which flags, in which
  period, whether the period's moves were completed);
- :mod:`adjudicator.clocks.match`: checkers match clocks carried between the two games.
"""

from __future__ import annotations

from adjudicator.clocks.notation import TimeControlError, parse_time_control
from adjudicator.clocks.timecontrol import Period, TimeControl, TimingMode, hms

__all__ = ["Period", "TimeControl", "TimeControlError", "TimingMode", "hms", "parse_time_control"]
