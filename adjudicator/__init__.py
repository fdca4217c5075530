"""The arbiter's assistant: the domain.

Records and replay, clocks, rulesets, one module per claim, committee rules and
rulings as values. This package does no I/O: it never reads files, starts
processes or touches the network. Callers (``web/``) read inputs and hand them in;
searches and probes (``engines/``) are handed in through :mod:`adjudicator.services`.
"""

__version__ = "0.1.0"
