"""The ruleset reference (``docs/rulesets.md``), written from the models: every option, its type,
default and meaning, per section. ``adjudicator rulesets reference > docs/rulesets.md`` regenerates it.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from typing import Any, Literal

from adjudicator.rulebook.checkers import CheckersRuleset
from adjudicator.rulebook.chess import NEEDED_BY_MODE, ChessRuleset
from adjudicator.rulebook.common import Ruleset
from adjudicator.rulebook.options import Option, Section, options

INTRO = """\
# Ruleset reference

<!-- Generated from adjudicator/rulebook/ by `adjudicator rulesets reference > docs/rulesets.md`.
     Do not edit by hand: tests/test_rulesets_reference.py fails when this file is not current. -->

Each event's rules are a `[rulesets.<id>]` table of `config.toml` (or of the file
`ADJUDICATOR_CONFIG` names). A ruleset may `extends = "<another id>"` and set only what
its regulations change: tables merge key by key, and the result is checked against the
options below when the configuration is read. An option that is not listed here, a value
of the wrong type or not among the choices, or a required option left out is an error
naming its full key (`rulesets.my-open.repetition.claim_occurences: is not an option of
this ruleset (did you mean claim_occurrences?)`). `adjudicator rulesets check FILE` lists
every problem of a configuration file.

Every article a ruling cites is `"<authority> <article>"`.
"""

_TYPE_NAMES = {int: "whole number", float: "number", bool: "true / false", str: "string"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def type_name(annotation: Any) -> str:
    """An option's type as an organiser reads it."""
    if typing.get_origin(annotation) is Literal:
        return " \\| ".join(f'`"{choice}"`' for choice in typing.get_args(annotation))
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        names = [type_name(arg) for arg in typing.get_args(annotation) if arg is not type(None)]
        unset = " (or unset)" if type(None) in typing.get_args(annotation) else ""
        return " or ".join(names) + unset
    if typing.get_origin(annotation) is list:
        return f"list of {type_name(typing.get_args(annotation)[0])}s"
    if isinstance(annotation, type) and issubclass(annotation, Section):
        return "table"
    return _TYPE_NAMES.get(annotation, str(annotation))


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, int | float):
        return f"`{value}`"
    if isinstance(value, list | tuple):
        return "`[" + ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in value) + "]`"
    return f"`{value!r}`"


def default_text(declared: Option) -> str:
    """The option's default, or what it depends on."""
    if declared.meta(NEEDED_BY_MODE) is not None:
        return f"required when `mode = \"{declared.meta(NEEDED_BY_MODE)}\"`"
    if declared.meta("default_text") is not None:
        return f"`{declared.meta('default_text')}`"
    if declared.is_required:
        return "**required**"
    default = declared.default()
    if default is None:
        return "unset"
    return _toml(default)


def option_table(model: type[Section], names: list[str]) -> Iterator[str]:
    yield "| option | type | default | meaning |"
    yield "|---|---|---|---|"
    for name in names:
        declared = options(model)[name]
        yield (f"| `{name}` | {type_name(declared.kind)} | {default_text(declared)} | "
               f"{_cell(declared.description)} |")


def section_tables(model: type[Section], names: list[str], prefix: str) -> Iterator[str]:
    """Each section field of ``model`` (among ``names``) as its own table, sub-tables after it."""
    for name in names:
        section = options(model)[name].section
        if section is None:
            continue
        path = f"{prefix}.{name}" if prefix else name
        doc = (section.__doc__ or "").strip().split("\n")[0]
        meaning = doc.split(": ", 1)[1] if ": " in doc else doc
        scalars = [n for n, declared in options(section).items() if declared.section is None]
        yield ""
        yield f"### `[{path}]`"
        yield ""
        yield _cell(meaning[:1].upper() + meaning[1:])
        if scalars:
            yield ""
            yield from option_table(section, scalars)
        yield from section_tables(section, list(options(section)), path)


def _game(title: str, model: type[Ruleset]) -> Iterator[str]:
    own = [n for n in options(model) if n not in options(Ruleset)]
    scalars = [n for n in own if options(model)[n].section is None]
    yield ""
    yield f"## {title}"
    yield ""
    yield _cell((model.__doc__ or "").strip())
    if scalars:
        yield ""
        yield "### `[rulesets.<id>]`"
        yield ""
        yield from option_table(model, scalars)
    yield from section_tables(model, own, "rulesets.<id>")


def reference() -> str:
    """The whole reference, as Markdown."""
    shared = list(options(Ruleset))
    lines = [INTRO.rstrip("\n"), "", "## Every ruleset", "", "### `[rulesets.<id>]`", ""]
    lines += option_table(Ruleset, [n for n in shared if options(Ruleset)[n].section is None])
    lines += section_tables(Ruleset, shared, "rulesets.<id>")
    lines += _game("Chess (`game = \"chess\"`)", ChessRuleset)
    lines += _game("Checkers (`game = \"checkers\"`)", CheckersRuleset)
    return "\n".join(lines) + "\n"
