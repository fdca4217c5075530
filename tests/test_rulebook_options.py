"""The option tables (adjudicator/rulebook/options.py): what an organiser's table may hold, and how a problem
is named. The rulesets' and the settings' own wording of these problems is tests/test_rulesets.py's and
tests/test_settings.py's."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import ClassVar, Literal

import pytest

from adjudicator.rulebook.options import (
    FIELD_ERROR,
    FieldProblem,
    OptionsInvalid,
    Section,
    build,
    checks,
    option,
    options,
)
from adjudicator.rulesets import RulesetBook
from web.config import load_config
from web.settings import Settings


class Clock(Section):
    """A table for these tests: a time, a choice, a list and a table within."""

    seconds: float = option(default=30.0, description="a number", ge=0)
    moves: int = option(description="a whole number, required")
    mode: Literal["sudden-death", "delay"] = option(default="delay", description="a choice")
    names: list[str] = option(default=["a"], description="a list")

    @checks("moves")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value <= 0:
            raise ValueError("must be positive")
        return value

    def verify(self) -> None:
        if self.mode == "sudden-death" and self.seconds:
            raise FieldProblem("seconds", "must be 0 in sudden death")


def problems(data: object) -> list[tuple[tuple[str | int, ...], str, str]]:
    with pytest.raises(OptionsInvalid) as caught:
        build(Clock, data)
    return [(error.loc, error.kind, error.message) for error in caught.value.errors]


def test_a_table_keeps_its_values_and_takes_the_defaults_it_leaves_out() -> None:
    clock = build(Clock, {"moves": 40, "seconds": 5})
    assert (clock.moves, clock.seconds, clock.mode, clock.names) == (40, 5.0, "delay", ["a"])
    assert isinstance(clock.seconds, float)  # a whole number is a number
    assert build(Clock, {"moves": 40}).names is not clock.names  # a list default is each table's own


def test_no_value_is_coerced_and_every_problem_is_named_in_order_unknown_options_last() -> None:
    assert problems({"moves": "40", "seconds": True, "mode": "blitz", "mvoes": 1, "names": ["x", 2]}) == [
        (("seconds",), "float_type", "Input should be a valid number"),
        (("moves",), "int_type", "Input should be a valid integer"),
        (("mode",), "literal_error", "Input should be 'sudden-death' or 'delay'"),
        (("names", 1), "string_type", "Input should be a valid string"),
        (("mvoes",), "extra_forbidden", "Extra inputs are not permitted"),
    ]
    assert problems({}) == [(("moves",), "missing", "Field required")]
    assert problems("40 moves") == [((), "model_type", "Input should be a valid dictionary or instance of Clock")]


def test_a_least_value_refuses_what_is_below_it_and_what_is_no_number() -> None:
    assert problems({"moves": 40, "seconds": -1})[0][1] == "greater_than_equal"
    assert problems({"moves": 40, "seconds": float("nan")})[0][2] == "Input should be greater than or equal to 0"
    assert build(Clock, {"moves": 40, "seconds": float("inf")}).seconds == float("inf")


def test_an_options_check_and_the_tables_own_check_name_the_option() -> None:
    assert problems({"moves": 0}) == [(("moves",), "value_error", "Value error, must be positive")]
    assert problems({"moves": 40, "mode": "sudden-death"}) == [(("seconds",), FIELD_ERROR, "must be 0 in sudden death")]


def test_a_check_that_names_no_option_is_refused_when_the_table_is_declared() -> None:
    with pytest.raises(TypeError, match="no option"):
        class Misspelt(Section):
            members: int = option(default=3, description="members")

            @checks("membrs")
            @classmethod
            def _range(cls, value: int) -> int:
                return value


def test_a_check_overridden_runs_once_as_the_override() -> None:
    seen: list[str] = []

    class Base(Section):
        n: int = option(default=1, description="n")

        @checks("n")
        @classmethod
        def _n(cls, value: int) -> int:
            seen.append("base")
            return value

    class Child(Base):
        @checks("n")
        @classmethod
        def _n(cls, value: int) -> int:
            seen.append("child")
            return value

    build(Child, {"n": 2})
    assert seen == ["child"]


def test_a_table_is_frozen_compared_by_value_and_survives_a_copy_and_pickling() -> None:
    clock = build(Clock, {"moves": 40})
    with pytest.raises(AttributeError):
        clock.moves = 30  # type: ignore[misc]
    assert clock == build(Clock, {"moves": 40}) != build(Clock, {"moves": 30})
    assert copy.deepcopy(clock) == clock == pickle.loads(pickle.dumps(clock))
    assert clock.replaced(moves=30).moves == 30 and clock.moves == 40


def test_a_ruleset_keeps_its_id_and_lineage_through_a_copy_and_pickling() -> None:
    rapid = RulesetBook.from_config(load_config())["fide-rapid"]
    for copied in (pickle.loads(pickle.dumps(rapid)), copy.deepcopy(rapid), rapid.replaced(title="Rapid")):
        assert (copied.id, copied.lineage) == (rapid.id, rapid.lineage)
    assert rapid.lineage == ("fide-rapid", "fide-standard")
    assert hash(rapid) == hash(pickle.loads(pickle.dumps(rapid)))


def test_the_settings_are_tables_too() -> None:
    settings = Settings.of({"queue": {"lease_seconds": 5}})
    assert settings.queue.lease_seconds == 5.0 and settings.table()["queue"]["lease_seconds"] == 5.0


def test_a_table_is_declared_as_a_frozen_keyword_only_dataclass_is() -> None:
    # the rules a dataclass follows, which the type checker assumes (dataclass_transform) and a reader expects
    class Named(Section):
        first: int = option(default=1, description="first")

    class Other(Section):
        second: int = option(default=2, description="second")

    class Both(Named, Other):
        third: int = option(default=3, description="third")
        kept: ClassVar[int] = 7  # a class variable, no option

    class Again(Named):
        first: int  # declared again: the base's default stays

    class Hidden(Section):
        shown: int = option(default=1, description="shown")
        ignored: int = dataclasses.field(default=2, compare=False, repr=False)

    assert list(options(Both)) == ["second", "first", "third"] and Both() == Both(first=1, second=2, third=3)
    assert Again().first == 1 and Hidden(ignored=5) == Hidden(ignored=6) and repr(Hidden()) == (
        "test_a_table_is_declared_as_a_frozen_keyword_only_dataclass_is.<locals>.Hidden(shown=1)")
    with pytest.raises(ValueError, match="mutable default"):
        class Shared(Section):
            names: list[str] = []
    clock = build(Clock, {"moves": 40})
    assert dataclasses.is_dataclass(clock) and [f.name for f in dataclasses.fields(clock)] == list(options(Clock))
    assert dataclasses.asdict(clock) == clock.table() and dataclasses.replace(clock, moves=30).moves == 30
