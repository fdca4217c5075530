"""Claims in chess, one module per claim; :mod:`adjudicator.claims.table` is their table.

Each claim module exposes ``rule(case, ruleset, services) -> Ruling``.
"""
