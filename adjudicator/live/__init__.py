"""Live games read from a broadcast (a DGT LiveChess export or a PGN/PDN URL): which board, which game, which
clocks. Shared by the claim form's broadcast panel (``web/broadcast``) and the arbiter's watch."""
