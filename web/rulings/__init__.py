"""The ruling page, its evidence step-through, the job progress widget, the printable sheet."""

from web.rulings.views import bp

__all__ = ["bp"]
