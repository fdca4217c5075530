"""Claims in chess, one module per claim; :mod:`adjudicator.chess.claims.table` is their table.

Each claim module exposes ``rule(case, ruleset, services) -> Ruling``.
"""
