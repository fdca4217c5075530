"""Chess: the record reader (:mod:`~adjudicator.chess.movetext`, :mod:`~adjudicator.chess.notation`,
:mod:`~adjudicator.chess.san`, :mod:`~adjudicator.chess.readings`), the replay
(:mod:`~adjudicator.chess.replay`, :mod:`~adjudicator.chess.positions`), the judgement of a
position (:mod:`~adjudicator.chess.assessment`, :mod:`~adjudicator.chess.normal_means`), what
the domain asks of an engine (:mod:`~adjudicator.chess.analysis`) and one module per claim
(:mod:`adjudicator.chess.claims`). Beside it, :mod:`adjudicator.checkers` has the same shape."""
