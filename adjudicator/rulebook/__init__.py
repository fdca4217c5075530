"""The rulebook: what a ruleset may contain, one typed model per ``[rulesets.<id>.<section>]`` table.

- :mod:`adjudicator.rulebook.common`: what every ruleset has (title, game, authority,
  committee, default time control) and the section base (unknown keys are errors);
- :mod:`adjudicator.rulebook.chess`: the chess sections (FIDE Laws, US Chess rules);
- :mod:`adjudicator.rulebook.checkers`: the checkers sections (ACF);
- :mod:`adjudicator.rulebook.reference`: the option reference (``docs/rulesets.md``), generated.

:mod:`adjudicator.rulesets` reads the configuration with them (``extends`` first).
"""
