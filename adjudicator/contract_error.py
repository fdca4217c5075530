"""The contract's error: the input does not follow the contract (``shared/contract.md``, "Errors")."""

from __future__ import annotations

from typing import Any


class ContractError(ValueError):
    """The input does not follow the contract; names the field and the problem."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}
