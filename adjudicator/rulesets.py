"""Rulesets as data: each event's rules, read from the ``[rulesets.*]`` tables of ``config.toml``.

A ruleset may ``extends`` another and override only what its regulations change
(tables merge key by key). Claim modules read their parameters through the typed
accessors below, each of which raises :class:`RulesetError` naming the full key
(``rulesets.sabah-active30.ilc.claimant_floor_seconds``) when it is missing or malformed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.contract import ContractError


class RulesetError(ValueError):
    """A ruleset in the configuration is unknown, missing a key, or malformed."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


_MISSING = object()


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


@dataclass(frozen=True)
class Ruleset:
    """One event's rules after inheritance: ``data`` is the merged TOML table."""

    id: str
    title: str
    game: str
    lineage: tuple[str, ...]
    """This ruleset, then the one it extends, and so on up to the root."""
    data: Mapping[str, Any]

    def _get(self, path: str) -> Any:
        node: Any = self.data
        for part in path.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return _MISSING
            node = node[part]
        return node

    def key(self, path: str) -> str:
        return f"rulesets.{self.id}.{path}"

    def has(self, path: str) -> bool:
        return self._get(path) is not _MISSING

    def _require(self, path: str, default: Any) -> Any:
        value = self._get(path)
        if value is _MISSING:
            if default is _MISSING:
                raise RulesetError(self.key(path), "is missing")
            return default
        return value

    def get_int(self, path: str, default: Any = _MISSING) -> int:
        value = self._require(path, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(self.key(path), f"must be a whole number, not {value!r}")
        return value

    def get_float(self, path: str, default: Any = _MISSING) -> float:
        value = self._require(path, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RulesetError(self.key(path), f"must be a number, not {value!r}")
        return float(value)

    def get_bool(self, path: str, default: Any = _MISSING) -> bool:
        value = self._require(path, default)
        if not isinstance(value, bool):
            raise RulesetError(self.key(path), f"must be true or false, not {value!r}")
        return value

    def get_str(self, path: str, default: Any = _MISSING) -> str:
        value = self._require(path, default)
        if not isinstance(value, str):
            raise RulesetError(self.key(path), f"must be a string, not {value!r}")
        return value

    def get_choice(self, path: str, options: tuple[str, ...], default: Any = _MISSING) -> str:
        value = self.get_str(path, default)
        if value not in options:
            raise RulesetError(self.key(path), f"must be one of {', '.join(options)}, not {value!r}")
        return value

    def get_table(self, path: str, default: Any = _MISSING) -> Mapping[str, Any]:
        value = self._require(path, default)
        if not isinstance(value, Mapping):
            raise RulesetError(self.key(path), "must be a table")
        return value

    def ref(self, article: str) -> str:
        """An article as this ruleset names it: ``ref("9.2.2")`` → ``"FIDE 9.2.2"``."""
        return f"{self.get_str('authority')} {article}"

    def is_a(self, ruleset_id: str) -> bool:
        """Whether this ruleset is ``ruleset_id`` or extends it."""
        return ruleset_id in self.lineage


@dataclass(frozen=True)
class RulesetBook:
    """All rulesets of a configuration, resolved."""

    rulesets: Mapping[str, Ruleset]

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> RulesetBook:
        """Resolve the ``rulesets`` table of a decoded configuration (inheritance, required keys)."""
        raw = config.get("rulesets")
        if not isinstance(raw, Mapping) or not raw:
            raise RulesetError("rulesets", "the configuration has no [rulesets.*] tables")
        resolved: dict[str, Ruleset] = {}

        def resolve(rid: str, chain: tuple[str, ...]) -> Ruleset:
            if rid in resolved:
                return resolved[rid]
            if rid in chain:
                raise RulesetError(f"rulesets.{rid}.extends", f"circular: {' -> '.join((*chain, rid))}")
            table = raw.get(rid)
            if not isinstance(table, Mapping):
                raise RulesetError(f"rulesets.{rid}", "is not a table")
            parent_id = table.get("extends")
            if parent_id is None:
                data = dict(table)
                lineage: tuple[str, ...] = (rid,)
            else:
                if not isinstance(parent_id, str) or parent_id not in raw:
                    raise RulesetError(f"rulesets.{rid}.extends", f"names no known ruleset: {parent_id!r}")
                parent = resolve(parent_id, (*chain, rid))
                data = _merge(parent.data, {k: v for k, v in table.items() if k != "extends"})
                lineage = (rid, *parent.lineage)
            ruleset = Ruleset(
                id=rid,
                title=str(data.get("title", rid)),
                game=str(data.get("game", "")),
                lineage=lineage,
                data=data,
            )
            if ruleset.game not in ("chess", "checkers"):
                raise RulesetError(f"rulesets.{rid}.game", "must be chess or checkers")
            ruleset.get_str("title")
            ruleset.get_str("authority")
            resolved[rid] = ruleset
            return ruleset

        for rid in raw:
            resolve(str(rid), ())
        return cls(rulesets=resolved)

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        try:
            return self.rulesets[ruleset_id]
        except KeyError:
            known = ", ".join(sorted(self.rulesets))
            raise ContractError(
                "unknown_ruleset", f"unknown ruleset {ruleset_id!r}; known: {known}", "ruleset"
            ) from None

    def __iter__(self) -> Any:
        return iter(self.rulesets.values())
