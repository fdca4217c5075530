"""Chess searches and probes: Stockfish (:mod:`~engines.chess.stockfish`), the endgame
tablebases (:mod:`~engines.chess.tablebase`), dead-position analysis
(:mod:`engines.chess.unwinnable`) and the forced-mate search (:mod:`~engines.chess.forced_mate`).
Beside it, :mod:`engines.checkers`."""
