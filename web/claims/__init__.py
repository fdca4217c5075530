"""Entering a claim at the board: the form, and handing the case to the ruling."""

from web.claims.views import bp

__all__ = ["bp"]
