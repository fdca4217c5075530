"""The JSON API of the contract: ``POST /api/v1/rulings``, ``GET /api/v1/rulings/<id>``."""

from web.api.views import bp

__all__ = ["bp"]
