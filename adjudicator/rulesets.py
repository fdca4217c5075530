"""Rulesets as data: each event's rules, read from the ``[rulesets.*]`` tables of ``config.toml``.

A ruleset may ``extends`` another and override only what its regulations change
(tables merge key by key). The merged table is then validated by its game's model
(:mod:`adjudicator.rulebook.chess`, :mod:`adjudicator.rulebook.checkers`): every option
is typed, has its default in the model, and an option the model does not know is an
error. Problems are found at start-up, each naming its full key
(``rulesets.sabah-active30.ilc.claimant_floor_seconds``) in the ruleset whose own table
holds it; :func:`check_rulesets` lists every problem of a configuration.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from adjudicator.contract import ContractError
from adjudicator.rulebook.checkers import CheckersRuleset
from adjudicator.rulebook.chess import ChessRuleset
from adjudicator.rulebook.common import Ruleset
from adjudicator.rulebook.options import FIELD_ERROR, OptionError, OptionsInvalid, Section, build, options

MODELS: Mapping[str, type[Ruleset]] = {"chess": ChessRuleset, "checkers": CheckersRuleset}
"""The model of a ruleset, by its ``game``."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a configuration's rulesets: the full key and what is wrong with it."""

    key: str
    problem: str

    def __str__(self) -> str:
        return f"{self.key}: {self.problem}"


class RulesetError(ValueError):
    """A ruleset in the configuration is unknown, missing a key, or malformed.

    ``key`` and ``problem`` are the first problem; ``problems`` lists them all.
    """

    def __init__(self, key: str, problem: str, problems: tuple[Problem, ...] = ()) -> None:
        self.problems = problems or (Problem(key, problem),)
        more = len(self.problems) - 1
        suffix = f" (and {more} more: adjudicator rulesets check FILE lists them)" if more else ""
        super().__init__(f"{key}: {problem}{suffix}")
        self.key = key
        self.problem = problem

    def as_contract_error(self) -> ContractError:
        """The contract's ``invalid_ruleset`` error (the one place it is built), naming the first problem's key."""
        return invalid_ruleset(self.key, str(self))


def invalid_ruleset(key: str, message: str) -> ContractError:
    """The contract's error for a ruleset that is unknown, missing a key or malformed (``field``: the key)."""
    return ContractError("invalid_ruleset", message, key)


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


@dataclass(frozen=True)
class _Merged:
    data: dict[str, Any]
    lineage: tuple[str, ...]


class _Resolver:
    """``extends`` applied: each ruleset's table merged over its parents' (before validation)."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.merged: dict[str, _Merged] = {}
        self.failed: set[str] = set()
        self.problems: list[Problem] = []

    def resolve(self, rid: str, chain: tuple[str, ...] = ()) -> _Merged | None:
        if rid in self.merged:
            return self.merged[rid]
        if rid in self.failed:
            return None
        if rid in chain:
            self._fail(chain[0], f"rulesets.{rid}.extends", f"circular: {' -> '.join((*chain, rid))}")
            return None
        table = self.raw.get(rid)
        if not isinstance(table, Mapping):
            self._fail(rid, f"rulesets.{rid}", "is not a table")
            return None
        parent_id = table.get("extends")
        own = {k: v for k, v in table.items() if k != "extends"}
        if parent_id is None:
            found = _Merged(own, (rid,))
        elif not isinstance(parent_id, str) or parent_id not in self.raw:
            self._fail(rid, f"rulesets.{rid}.extends", f"names no known ruleset: {parent_id!r}")
            return None
        else:
            parent = self.resolve(parent_id, (*chain, rid))
            if parent is None:
                self.failed.add(rid)
                return None
            found = _Merged(_merge(parent.data, own), (rid, *parent.lineage))
        self.merged[rid] = found
        return found

    def _fail(self, rid: str, key: str, problem: str) -> None:
        self.failed.add(rid)
        self.problems.append(Problem(key, problem))


def _own_table(raw: Mapping[str, Any], rid: str) -> Mapping[str, Any]:
    table = raw.get(rid)
    return table if isinstance(table, Mapping) else {}


def _defines(table: Mapping[str, Any], loc: tuple[str, ...]) -> bool:
    node: Any = table
    for part in loc:
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def _section_at(model: type[Section], loc: tuple[str, ...]) -> type[Section] | None:
    found: type[Section] | None = model
    for part in loc:
        declared = options(found).get(part) if found is not None else None
        found = declared.section if declared is not None else None
    return found


def _describe(error: OptionError, model: type[Section], loc: tuple[str, ...]) -> str:
    kind, value = error.kind, error.input
    if kind == "missing":
        return "is missing"
    if kind == "extra_forbidden":
        section = _section_at(model, loc[:-1])
        close = difflib.get_close_matches(loc[-1], list(options(section)) if section else [], n=1, cutoff=0.7)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return f"is not an option of this ruleset{hint}"
    if kind == FIELD_ERROR:
        return error.message
    if kind == "literal_error":
        return f"must be one of {error.expected}, not {value!r}"
    if kind in ("model_type", "dict_type"):
        return f"must be a table, not {value!r}"
    plain = {"int_type": "a whole number", "float_type": "a number", "bool_type": "true or false",
             "string_type": "a string"}
    if kind in plain:
        return f"must be {plain[kind]}, not {value!r}"
    return error.message.removeprefix("Value error, ")


def _problems(error: OptionError, model: type[Section]) -> tuple[tuple[str, ...], str]:
    loc = tuple(str(part) for part in error.loc)
    return loc, _describe(error, model, loc)


def _validate(resolver: _Resolver, rid: str, reported: dict[str, set[tuple[tuple[str, ...], str]]]
              ) -> tuple[Ruleset | None, list[Problem]]:
    """The ruleset ``rid`` validated, or the problems in it (each named in the table that holds it)."""
    merged = resolver.merged[rid]
    game = merged.data.get("game")
    if game not in MODELS:
        return None, [Problem(f"rulesets.{rid}.game", f"must be chess or checkers, not {game!r}")]
    model = MODELS[str(game)]
    try:
        return build(model, merged.data, {"id": rid, "lineage": merged.lineage}), []
    except OptionsInvalid as exc:
        found: list[Problem] = []
        own: set[tuple[tuple[str, ...], str]] = set()
        parent = merged.lineage[1] if len(merged.lineage) > 1 else None
        for error in exc.errors:
            loc, problem = _problems(error, model)
            own.add((loc, problem))
            owner = next((r for r in merged.lineage if _defines(_own_table(resolver.raw, r), loc)), None)
            if owner is None and parent is not None and (loc, problem) in reported.get(parent, set()):
                continue  # inherited, and reported in the parent already
            owner = owner or rid
            if owner != rid and (loc, problem) in reported.get(owner, set()):
                continue
            found.append(Problem(".".join(("rulesets", owner, *loc)), problem))
        reported[rid] = own
        return None, found


def check_rulesets(config: Mapping[str, Any]) -> tuple[dict[str, Ruleset], list[Problem]]:
    """Every ruleset of a decoded configuration validated, and every problem found (in file order)."""
    raw = config.get("rulesets")
    if not isinstance(raw, Mapping) or not raw:
        return {}, [Problem("rulesets", "the configuration has no [rulesets.*] tables")]
    resolver = _Resolver(raw)
    for rid in raw:
        resolver.resolve(str(rid))
    problems = list(resolver.problems)
    rulesets: dict[str, Ruleset] = {}
    reported: dict[str, set[tuple[tuple[str, ...], str]]] = {}
    for rid in resolver.merged:  # parents before their children
        ruleset, found = _validate(resolver, rid, reported)
        problems.extend(p for p in found if p not in problems)
        if ruleset is not None:
            rulesets[rid] = ruleset
    return rulesets, problems


@dataclass(frozen=True)
class RulesetBook:
    """All rulesets of a configuration, resolved and validated."""

    rulesets: Mapping[str, Ruleset]

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> RulesetBook:
        """Resolve and validate the ``rulesets`` table of a decoded configuration (a table validated before,
        the same to the last value, gives the book it gave: a command's start validates it once).

        :raises RulesetError: the first problem, naming its key (``problems``: all of them).
        """
        key = repr(config.get("rulesets"))  # TOML's values: their repr tells them apart (1 from 1.0 from true)
        with _BOOKS_LOCK:
            book = _BOOKS.get(key)
        if book is not None:
            return book
        rulesets, problems = check_rulesets(config)
        if problems:
            raise RulesetError(problems[0].key, problems[0].problem, tuple(problems))
        book = cls(rulesets=rulesets)
        with _BOOKS_LOCK:
            _BOOKS[key] = book
            while len(_BOOKS) > 8:
                _BOOKS.pop(next(iter(_BOOKS)))
        return book

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        try:
            return self.rulesets[ruleset_id]
        except KeyError:
            known = ", ".join(sorted(self.rulesets))
            raise ContractError(
                "unknown_ruleset", f"unknown ruleset {ruleset_id!r}; known: {known}", "ruleset"
            ) from None

    def chess(self, ruleset_id: str) -> ChessRuleset:
        """A chess ruleset (:raises ContractError: unknown, or a checkers ruleset)."""
        return _of_game(self[ruleset_id], ChessRuleset)

    def checkers(self, ruleset_id: str) -> CheckersRuleset:
        """A checkers ruleset (:raises ContractError: unknown, or a chess ruleset)."""
        return _of_game(self[ruleset_id], CheckersRuleset)

    def __iter__(self) -> Iterator[Ruleset]:
        return iter(self.rulesets.values())


_BOOKS: dict[str, RulesetBook] = {}
_BOOKS_LOCK = threading.Lock()
"""The books validated last, by their ``rulesets`` table's text (frozen rulesets: one book serves every caller)."""

R = TypeVar("R", bound=Ruleset)


def _of_game(ruleset: Ruleset, kind: type[R]) -> R:
    if not isinstance(ruleset, kind):
        raise ContractError("invalid_field", f"ruleset {ruleset.id!r} is for {ruleset.game}", "ruleset")
    return ruleset


__all__ = ["ChessRuleset", "CheckersRuleset", "Problem", "Ruleset", "RulesetBook", "RulesetError", "check_rulesets",
           "invalid_ruleset"]
