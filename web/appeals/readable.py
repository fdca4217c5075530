"""The appeal page in words: the re-run compared with the original part by part, values written
as sentences rather than JSON, and the raw record for whoever asks for it (with server paths
shortened: where the app keeps its files is no business of the page).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from adjudicator.contract import ContractError, parse_case
from web.appeals.service import COMPARED, SETTINGS, VOLATILE
from web.committee.position import diagram, position_of

LABELS: dict[str, str] = {
    "verdict": "Verdict",
    "result": "Result",
    "rule_refs": "Rules cited",
    "reasons": "Reasons",
    "evidence": "Evidence",
    "confidence": "Confidence",
    "adjustments": "Clock and other adjustments",
    "instructions": "Instructions",
}

_ABSOLUTE_PATH = re.compile(r"^/(?:[^/\s]+/)+([^/\s]+)/?$")


def short_path(value: str) -> str:
    """``/srv/app/data/checkers-db`` -> ``…/checkers-db``; any other text as it is."""
    found = _ABSOLUTE_PATH.match(value)
    return f"…/{found.group(1)}" if found else value


def _shorten(value: Any) -> Any:
    if isinstance(value, str):
        return short_path(value)
    if isinstance(value, Mapping):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v) for v in value]
    return value


def raw(value: Any) -> str:
    """The value as indented JSON, readable characters kept (no ``\\u0027``), server paths shortened."""
    return json.dumps(_shorten(value), indent=2, ensure_ascii=False, sort_keys=False, default=str)


def words(value: Any) -> str:
    """A value as a reader says it: lists joined, mappings as ``key: value``, nothing as "none"."""
    if value is None or value == [] or value == {} or value == "":
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(words(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{str(k).replace('_', ' ')}: {words(v)}" for k, v in value.items())
    return short_path(str(value))


@dataclass(frozen=True)
class Line:
    """One part of the ruling, original against re-run."""

    label: str
    is_same: bool
    original: str
    rerun: str


def compare(original: Mapping[str, Any] | None, rerun: Mapping[str, Any] | None) -> list[Line]:
    """Each compared part (the evidence entry by entry), in words; timings are left out as the
    service leaves them out of the differences (a re-run is never exactly as fast)."""
    if original is None or rerun is None:
        return []
    lines: list[Line] = []
    for key in COMPARED:
        before, after = original.get(key), rerun.get(key)
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            for sub in [*before, *(k for k in after if k not in before)]:
                if sub in VOLATILE or sub in SETTINGS:  # how it was run: listed apart (web.appeals.decisive)
                    continue
                b, a = before.get(sub), after.get(sub)
                lines.append(Line(f"{LABELS.get(key, key)}: {sub.replace('_', ' ')}", _same(b, a), words(b), words(a)))
            continue
        lines.append(Line(LABELS.get(key, key), _same(before, after), words(before), words(after)))
    return lines


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def record_diagram(record: Mapping[str, Any]) -> Markup | None:
    """A diagram of the appealed position (a committee case's position, or the stored case's)."""
    position = record.get("position")
    case = record.get("case")
    game = case.get("game") if isinstance(case, Mapping) else None
    fen = position.get("fen") if isinstance(position, Mapping) else None
    if fen is None and isinstance(case, Mapping):

        contract_part = {k: v for k, v in case.items() if k not in ("round", "board", "players", "members")}
        try:
            fen = position_of(parse_case(contract_part)).get("fen")
        except (ContractError, ValueError):
            fen = None
    return diagram(str(game or "chess"), fen) if fen else None
