"""Tables of typed options, frozen and checked strictly: the rulesets' and the app's settings.

A :class:`Section` subclass is one table of ``config.toml``: each option an attribute declared
once with :func:`option` (its type, its default or none, its meaning), so the reference
(``docs/rulesets.md``) and the check are both read from the same declaration. :func:`build`
checks a decoded table against it: values keep their TOML type (no coercion: ``"3"`` is no
whole number, ``true`` is no number; a whole number is a number), a choice
(``Literal``) must be one of its values, an option the table does not know is an error
naming it, and every problem of the table is found, each with where it is (``loc``) and
what is wrong (:class:`OptionError`), in the order of the declaration, unknown options last.

This replaced the pydantic models these tables were (issue 40: the command line starts
without loading pydantic); the kinds and messages of the problems are the ones pydantic
gave, which :mod:`adjudicator.rulesets` and ``web.settings`` word for the organiser.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Literal, Self, TypeVar, cast, dataclass_transform

MISSING: Any = dataclasses.MISSING
S = TypeVar("S", bound="Section")


def option(
    *,
    default: Any = MISSING,
    description: str = "",
    default_factory: Callable[[], Any] | None = None,
    ge: float | None = None,
    needed_by_mode: str | None = None,
    default_text: str | None = None,
) -> Any:
    """An option of a :class:`Section`: its default (none: the table must give it), its meaning, and
    ``ge`` (the least value), ``needed_by_mode`` (required when the table's ``mode`` is that one),
    ``default_text`` (the default as the reference words it, when it follows another option)."""
    if isinstance(default, list):  # a list default is copied for each table
        default, default_factory = MISSING, (lambda copied=tuple(default): list(copied))
    metadata = {"description": description, "ge": ge, "needed_by_mode": needed_by_mode, "default_text": default_text}
    if default_factory is not None:
        return dataclasses.field(default_factory=default_factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def checks(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Marks a ``classmethod`` ``(cls, value) -> value`` of a :class:`Section` as the check of the options
    ``names``, run on a value the table gives once its type is right; a ``ValueError`` it raises is the
    option's problem."""

    def mark(function: Callable[..., Any]) -> Callable[..., Any]:
        target = function.__func__ if isinstance(function, classmethod) else function
        target.__checks__ = names  # type: ignore[attr-defined]
        return function

    return mark


class FieldProblem(ValueError):
    """A problem of one option found by a check of several (:meth:`Section.verify`): the option and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


FIELD_ERROR = "rulebook_field"
"""The kind of an :class:`OptionError` that a :class:`FieldProblem` gave."""


@dataclasses.dataclass(frozen=True)
class OptionError:
    """One problem of a table: where (``loc``, the keys from the table checked), its kind (pydantic's names:
    ``missing``, ``extra_forbidden``, ``int_type``, ``literal_error``, ``value_error``, ...), the value
    found (``input``), and the message (pydantic's wording); ``expected``: a choice's values."""

    loc: tuple[str | int, ...]
    kind: str
    input: Any
    message: str
    expected: str | None = None


class OptionsInvalid(ValueError):
    """The table has problems: ``errors``, every one of them."""

    def __init__(self, errors: list[OptionError]) -> None:
        first = errors[0]
        super().__init__(f"{'.'.join(map(str, first.loc))}: {first.message}")
        self.errors = tuple(errors)


@dataclasses.dataclass(frozen=True)
class Option:
    """An option as declared: its name, its type (resolved), its meaning and its default."""

    name: str
    kind: Any
    field: dataclasses.Field[Any]

    @property
    def description(self) -> str:
        return str(self.field.metadata.get("description") or "")

    @property
    def is_required(self) -> bool:
        return self.field.default is MISSING and self.field.default_factory is MISSING

    def default(self) -> Any:
        """The default value (a fresh one where it is built)."""
        factory: Any = self.field.default_factory
        return factory() if factory is not MISSING else self.field.default

    def meta(self, key: str) -> Any:
        return self.field.metadata.get(key)

    @property
    def section(self) -> type[Section] | None:
        """The table's type, where the option is a table."""
        return self.kind if isinstance(self.kind, type) and issubclass(self.kind, Section) else None


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(option, dataclasses.field))
class Section:
    """One table of options: each subclass is frozen, built from keyword arguments, compared by its options'
    values (a frozen keyword-only dataclass's behaviour, without a dataclass's code generated for each of the
    forty-odd tables at import: about 15 ms of every command's start)."""

    __section_fields__: ClassVar[dict[str, dataclasses.Field[Any]]] = {}
    _compared: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, dataclasses.Field[Any]] = {}
        for base in reversed(cls.__mro__[1:]):  # every base's options first (as a dataclass gathers them)
            fields.update(base.__dict__.get("__section_fields__", {}))
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if _is_class_var(annotation):
                continue
            value = getattr(cls, name, MISSING)  # an option declared again keeps a base's default and its place
            found = value if isinstance(value, dataclasses.Field) else dataclasses.field(default=value)
            if isinstance(found.default, list | dict | set):
                raise ValueError(f"{cls.__qualname__}.{name}: a mutable default is shared; use option(default=[...])")
            found.name = name
            setattr(found, "_field_type", _FIELD)  # noqa: B010 (a dataclass's field, for dataclasses.fields())
            fields[name] = found
            if found.default is MISSING:
                if name in cls.__dict__:
                    delattr(cls, name)
            else:
                setattr(cls, name, found.default)
        cls.__section_fields__ = fields
        setattr(cls, "__dataclass_fields__", fields)  # noqa: B010 (dataclasses.fields, asdict and replace work on it)
        cls._compared = tuple(name for name, found in fields.items() if found.compare)
        cls._shown = tuple(name for name, found in fields.items() if found.repr)
        for name, attribute in cls.__dict__.items():
            function = attribute.__func__ if isinstance(attribute, classmethod) else attribute
            unknown = [checked for checked in getattr(function, "__checks__", ()) if checked not in fields]
            if unknown:
                raise TypeError(f"{cls.__name__}.{name} checks {', '.join(map(repr, unknown))}: no option of it")

    def __init__(self, **values: Any) -> None:
        for name, found in self.__section_fields__.items():
            if found.init and name in values:
                value = values.pop(name)
            elif found.default is not MISSING:
                value = found.default
            elif (factory := cast(Any, found.default_factory)) is not MISSING:
                value = factory()
            else:
                raise TypeError(f"{type(self).__qualname__}() missing keyword argument: {name!r}")
            object.__setattr__(self, name, value)
        if values:
            raise TypeError(f"{type(self).__qualname__}() got unexpected keyword arguments: "
                            f"{', '.join(map(repr, values))}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._compared)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"

    def table(self) -> dict[str, Any]:
        """The options' values, a table's as a table of its own (``dataclasses.asdict``'s form)."""
        return {name: value.table() if isinstance(value, Section) else value
                for name, value in ((name, getattr(self, name)) for name in self.__section_fields__)}

    @classmethod
    def prepare(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """The table as given, before it is checked (a default that follows another option: override)."""
        return data

    def verify(self) -> None:
        """Checks of several options once each is right (override; raise :class:`FieldProblem`)."""

    def adopt(self, context: Mapping[str, Any]) -> None:
        """Takes what the caller of :func:`build` knows beyond the table (override: a ruleset's id)."""

    def replaced(self, **changes: Any) -> Self:
        """A copy with ``changes`` (not checked: the caller's own values), keeping what :meth:`adopt` took."""
        unknown = [name for name in changes if not (name in self.__section_fields__ and
                                                    self.__section_fields__[name].init)]
        if unknown:
            raise TypeError(f"{type(self).__name__} has no options {', '.join(map(repr, unknown))}")
        copy = object.__new__(type(self))
        for name in self.__section_fields__:
            object.__setattr__(copy, name, changes.get(name, getattr(self, name)))
        return copy


_FIELD: Any = getattr(dataclasses, "_FIELD", None)
"""What dataclasses marks an instance field with (``dataclasses.fields`` lists only those)."""


def _is_class_var(annotation: object) -> bool:
    """A ``ClassVar`` annotation, written or evaluated (as ``dataclasses`` tells one): no option."""
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return annotation is ClassVar or typing.get_origin(annotation) is ClassVar


_OPTIONS: dict[type[Section], dict[str, Option]] = {}
_CHECKS: dict[type[Section], dict[str, list[Callable[[Any], Any]]]] = {}


def options(model: type[Section]) -> Mapping[str, Option]:
    """The options of a table, in the order declared (a base class's first)."""
    found = _OPTIONS.get(model)
    if found is None:
        hints = typing.get_type_hints(model)
        found = {name: Option(name, hints[name], field)
                 for name, field in model.__section_fields__.items() if field.init}
        _OPTIONS[model] = found
    return found


def _checks(model: type[Section]) -> dict[str, list[Callable[[Any], Any]]]:
    """Each option's checks (:func:`checks`): the methods ``model`` has, an override standing for the method it
    overrides."""
    found = _CHECKS.get(model)
    if found is None:
        found = {}
        names = dict.fromkeys(name for klass in reversed(model.__mro__) for name in vars(klass))
        for name in names:
            attribute = inspect.getattr_static(model, name)
            function = attribute.__func__ if isinstance(attribute, classmethod) else attribute
            for option_name in getattr(function, "__checks__", ()):
                found.setdefault(option_name, []).append(getattr(model, name))
        _CHECKS[model] = found
    return found


def build(model: type[S], data: Any, context: Mapping[str, Any] | None = None) -> S:
    """The table ``data`` checked against ``model``. :raises OptionsInvalid: every problem of it."""
    errors: list[OptionError] = []
    built = _table(model, data, (), errors)
    if errors or built is None:
        raise OptionsInvalid(errors)
    if context is not None:
        built.adopt(context)
    return built


def _table(model: type[S], data: Any, loc: tuple[str | int, ...], errors: list[OptionError]) -> S | None:
    if not isinstance(data, Mapping):
        errors.append(OptionError(loc, "model_type", data,
                                  f"Input should be a valid dictionary or instance of {model.__name__}"))
        return None
    data = model.prepare(data)
    before = len(errors)
    values: dict[str, Any] = {}
    known = options(model)
    checks_of = _checks(model)
    for name, declared in known.items():
        where = (*loc, name)
        if name in data:
            good, value = _value(declared.kind, data[name], where, errors)
            if not good:
                continue
            if declared.meta("ge") is not None and not value >= declared.meta("ge"):  # nan is not at least 0
                errors.append(OptionError(where, "greater_than_equal", value,
                                          f"Input should be greater than or equal to {declared.meta('ge')}"))
                continue
            try:
                for check in checks_of.get(name, ()):
                    value = check(value)
            except ValueError as exc:
                errors.append(OptionError(where, "value_error", data[name], f"Value error, {exc}"))
                continue
            values[name] = value
        elif declared.is_required:
            if declared.section is not None:  # a table that must be given and is not: each missing option named
                found = _table(declared.section, {}, where, errors)
                if found is not None:
                    values[name] = found
            else:
                errors.append(OptionError(where, "missing", data, "Field required"))
            continue
        needed = declared.meta("needed_by_mode")
        if needed is not None and values.get(name, declared.default() if name not in data else None) is None \
                and values.get("mode") == needed:
            errors.append(OptionError(where, "value_error", None, f"Value error, is required when mode is {needed}"))
    for key in data:
        if key not in known:
            errors.append(OptionError((*loc, str(key)), "extra_forbidden", data[key], "Extra inputs are not permitted"))
    if len(errors) > before:
        return None
    built = model(**values)
    try:
        built.verify()
    except FieldProblem as exc:
        errors.append(OptionError((*loc, exc.field), FIELD_ERROR, None, exc.problem))
        return None
    return built


_PLAIN: dict[Any, tuple[str, str]] = {
    int: ("int_type", "a valid integer"), float: ("float_type", "a valid number"),
    bool: ("bool_type", "a valid boolean"), str: ("string_type", "a valid string"),
}


def _value(kind: Any, value: Any, loc: tuple[str | int, ...], errors: list[OptionError]) -> tuple[bool, Any]:
    """(whether ``value`` is of ``kind``, the value kept); a problem is added to ``errors``."""
    origin = typing.get_origin(kind)
    if isinstance(kind, type) and issubclass(kind, Section):
        built = _table(kind, value, loc, errors)
        return built is not None, built
    if origin is Literal:
        choices = typing.get_args(kind)
        if any(type(value) is type(choice) and value == choice for choice in choices):
            return True, value
        expected = _choices(choices)
        errors.append(OptionError(loc, "literal_error", value, f"Input should be {expected}", expected))
        return False, None
    if isinstance(kind, types.UnionType) or origin is typing.Union:
        members = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        if value is None and len(members) < len(typing.get_args(kind)):
            return True, None
        if len(members) == 1:
            return _value(members[0], value, loc, errors)
        for member in members:  # a list's problems are its items' where a list may be given
            if typing.get_origin(member) is list and isinstance(value, list):
                return _value(member, value, loc, errors)
        for member in members:  # each tried alone: the first that takes the value
            good, kept = _value(member, value, loc, [])
            if good:
                return True, kept
        errors.append(OptionError(loc, "union_type", value,
                                  "Input should be " + " or ".join(_wording(member) for member in members)))
        return False, None
    if origin is list:
        if not isinstance(value, list):
            errors.append(OptionError(loc, "list_type", value, "Input should be a valid list"))
            return False, None
        (item,) = typing.get_args(kind)
        kept_items, good_all = [], True
        for index, element in enumerate(value):
            good, kept = _value(item, element, (*loc, index), errors)
            good_all = good_all and good
            kept_items.append(kept)
        return good_all, kept_items
    if origin is dict:
        if not isinstance(value, dict):
            errors.append(OptionError(loc, "dict_type", value, "Input should be a valid dictionary"))
            return False, None
        return True, value
    if kind is Any:
        return True, value
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return True, float(value)
    if kind in _PLAIN and isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
        return True, value
    code, words = _PLAIN[kind]
    errors.append(OptionError(loc, code, value, f"Input should be {words}"))
    return False, None


def _choices(choices: tuple[Any, ...]) -> str:
    shown = [repr(choice) for choice in choices]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _wording(kind: Any) -> str:
    """A type as a union's message names it: ``a string``, ``a list of strings``."""
    return f"a {_noun(kind)}"


def _noun(kind: Any) -> str:
    if typing.get_origin(kind) is list:
        return f"list of {_noun(typing.get_args(kind)[0])}s"
    return {int: "whole number", float: "number", bool: "boolean", str: "string"}.get(kind, str(kind))


__all__ = ["FIELD_ERROR", "FieldProblem", "Option", "OptionError", "OptionsInvalid", "Section", "build", "checks",
           "option", "options"]
