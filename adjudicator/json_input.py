"""Decoding JSON input: one decoder for every entry point, so a hostile document is refused alike.

The command line, the JSON API and the Committee API all decode their JSON here. A
document is refused with a :class:`~adjudicator.contract.ContractError` naming the
field at fault when it

- is not JSON (or uses the non-standard ``NaN``/``Infinity``),
- nests arrays and objects more than :data:`MAX_DEPTH` deep,
- holds a number beyond ±:data:`MAX_INTEGER`, written as an integer or not (Python refuses to
  convert integers of more than 4,300 digits, no database column holds more than 64 bits,
  ``1e400`` is beyond the floating-point range, and no fact of a case is that large),
- holds a NUL character in a string or a key (PostgreSQL text cannot store one), or a
  lone surrogate (``"\\ud800"``: half of a UTF-16 pair, no character at all, which
  neither SQLite nor PostgreSQL can store as UTF-8).

No I/O: this takes text and returns the decoded document.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from adjudicator.contract import ContractError, unstorable

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (a case nests three deep)."""

MAX_INTEGER = 2**53
"""Largest integer magnitude accepted: exact in every JSON reader (RFC 8259, section 6)."""

_MAX_DIGITS = len(str(MAX_INTEGER))


class _TooLarge(str):
    """Marks an integer literal beyond :data:`MAX_INTEGER` until its field can be named."""


def _parse_int(text: str) -> int | _TooLarge:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        return _TooLarge(text[:12])
    value = int(text)
    return _TooLarge(text) if abs(value) > MAX_INTEGER else value


def _parse_float(text: str) -> float | _TooLarge:
    value = float(text)
    return value if math.isfinite(value) and abs(value) <= MAX_INTEGER else _TooLarge(text[:12])


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str | bytes, field: str = "body") -> Any:
    """The decoded document; :class:`ContractError` (``invalid_json``) naming ``field`` or the field inside it."""
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ContractError("invalid_json", f"{field} is not valid JSON: {exc.msg} at line {exc.lineno}",
                            field) from None
    except UnicodeDecodeError:
        raise ContractError("invalid_json", f"{field} is not UTF-8 text", field) from None
    except RecursionError:
        where = _deep_field(text, field)
        raise ContractError("invalid_json", f"{where} nests arrays or objects more than {MAX_DEPTH} deep",
                            where) from None
    except ValueError as exc:
        raise ContractError("invalid_json", f"{field} is not valid JSON: {exc}", field) from None
    check(data, field)
    return data


_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _deep_field(text: str | bytes, field: str) -> str:
    """The top-level key under which ``text`` nests too deeply (``field`` when the top level is not an object)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    depth, key, top = 0, field, ""
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token in "[{":
            if depth == 0:
                top = token
            depth += 1
            if depth > MAX_DEPTH:
                return key
        elif token in "]}":
            depth -= 1
        elif depth == 1 and top == "{":
            key = token[1:-1]
    return field


def check(data: Any, field: str = "body") -> None:
    """Refuse a decoded document nested too deeply, with a NUL character or a lone surrogate, or with an
    integer too large.

    The field is named as a path: ``clock.white``, ``members.2``; ``field`` names the document itself.
    Iterative, so a deep document cannot exhaust the stack here.
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        here = path or field
        if isinstance(value, _TooLarge):
            raise ContractError(
                "invalid_field", f"{here} is a number beyond the range accepted (up to ±2^53): {value}...",
                here,
            )
        if isinstance(value, str):
            problem = unstorable(value)
            if problem is not None:
                raise ContractError("invalid_field", f"{here} contains {problem}", here)
            continue
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                top = path.split(".")[0] or field
                raise ContractError("invalid_json", f"{top} nests arrays or objects more than {MAX_DEPTH} deep",
                                    top)
            if isinstance(value, dict):
                for key, item in value.items():
                    problem = unstorable(key)
                    if problem is not None:
                        raise ContractError("invalid_field", f"a key of {here} contains {problem}", here)
                    name = f"{path}.{key}" if path else str(key)
                    stack.append((item, name, depth + 1))
            else:
                prefix = path or field
                stack.extend((item, f"{prefix}.{i}", depth + 1) for i, item in enumerate(value))
