"""The options base every rule system's options class uses: one checked, described, JSON-ready option set.

A rule package declares its options table (the spec's "Options" section) as a frozen dataclass whose fields are
made by the helpers below, each naming its allowed values, its default, the spec rule id and what it means::

    @dataclass(frozen=True)
    class KawuxingOptions(RuleOptions):
        system: ClassVar[str] = "Kawuxing"

        base: int = integer(1, minimum=1, rule="KW-3", doc="V = base x the product of the factors")
        cap: int | None = integer(None, minimum=1, optional=True, rule="KW-24", doc="limit of the product")

:class:`RuleOptions` then gives:

- validation on construction: an unknown option or a bad value raises :class:`hupai.HupaiError` naming the
  option and its allowed values; ``True`` is not an int;
- :meth:`~RuleOptions.from_mapping` (what ``hupai.rules.get(name, **options)`` passes) and
  :meth:`~RuleOptions.to_dict`, every option named, JSON-ready, in field order (logs record it and replay from
  it, so it must read back to the same options), except a *house rule* at its default (below);
- :meth:`~RuleOptions.describe`: one :class:`OptionInfo` per option (name, allowed values, default, rule id,
  meaning), for documentation and the CLI.

House rules (``house=True``): an option added after logs of its rule system were recorded, for a reading of the
seed text that the spec does not follow (issue 23: the default is always the spec's reading). At its default it
is left out of :meth:`~RuleOptions.to_dict`, so the logs, snapshots and results recorded before it existed keep
their ``options`` and replay byte for byte (a missing name reads back as its default); set to another value it
is recorded like any option. :meth:`~RuleOptions.describe` lists it always.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, ClassVar, TypeVar

from ..errors import HupaiError
from ..jsonform import describe

__all__ = ["RuleOptions", "OptionInfo", "OptionKind", "choice", "integer", "flag", "int_list", "MAX_INT"]

_Options = TypeVar("_Options", bound="RuleOptions")

#: The largest value an int option takes unless it names a smaller ``maximum``. Options come from logs and
#: snapshots too (untrusted): an unbounded int could be sized into a table (a DoS), overflow the core's C ints,
#: or pass here and be refused when the game's own log is replayed (beyond 64 bits). A million is far above any
#: real stake, cap or reserve, and keeps ``base x cap x payers`` well inside the 2**53 an observation carries.
MAX_INT = 1_000_000


def _is_int(value: Any) -> bool:
    # bool is an int subclass; `True` as a base or a count is a caller's mistake, not a 1.
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class OptionKind:
    """What one option accepts. ``check`` returns the value to store (an int list becomes a tuple) or raises
    :class:`HupaiError` through :meth:`reject`; ``to_json`` is the value as a log records it."""

    allowed: str                  # in words, for messages and docs: "'one' or 'all_three'", "an int >= 1"
    rule: str
    doc: str
    house: bool = False           # a house rule: left out of to_dict() at its default (module docstring)

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def to_json(self, value: Any) -> Any:
        return value


@dataclass(frozen=True)
class _Choice(OptionKind):
    choices: tuple[Any, ...] = ()

    def check(self, value: Any) -> Any:
        # Compared with the type too: 1 == True, but a flag is not a choice of ints.
        if not any(type(value) is type(c) and value == c for c in self.choices):
            raise ValueError(f"must be one of {self.allowed}")
        return value


@dataclass(frozen=True)
class _Integer(OptionKind):
    minimum: int = 0
    optional: bool = False
    maximum: int = MAX_INT

    def check(self, value: Any) -> Any:
        if value is None and self.optional:
            return value
        if not _is_int(value):
            raise ValueError(f"must be {self.allowed}")
        if value < self.minimum:
            raise ValueError(f"must be >= {self.minimum}" + (" or None" if self.optional else ""))
        if value > self.maximum:
            raise ValueError(f"must be <= {self.maximum}" + (" or None" if self.optional else ""))
        return value


@dataclass(frozen=True)
class _Flag(OptionKind):
    def check(self, value: Any) -> Any:
        if not isinstance(value, bool):
            raise ValueError("must be true or false")
        return value


@dataclass(frozen=True)
class _IntList(OptionKind):
    length: int = 0
    minimum: int = 0
    maximum: int = MAX_INT

    def check(self, value: Any) -> Any:
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != self.length \
                or not all(_is_int(item) and item >= self.minimum for item in value):
            raise ValueError(f"must be {self.allowed}")
        if any(item > self.maximum for item in value):
            raise ValueError(f"must hold ints <= {self.maximum}")
        # A list from JSON becomes a tuple, so the options stay hashable and immutable.
        return tuple(value)

    def to_json(self, value: Any) -> Any:
        return list(value)


def _option(default: Any, kind: OptionKind) -> Any:
    # Typed Any so that `base: int = integer(...)` checks like a plain default.
    return field(default=default, metadata={"option": kind})


def choice(default: Any, *others: Any, rule: str, doc: str, house: bool = False) -> Any:
    """One of a few values (strings, or ``None`` for "off"); ``default`` first. ``house``: a house rule (left
    out of :meth:`RuleOptions.to_dict` at its default)."""
    choices = (default, *others)
    allowed = ", ".join(repr(c) for c in choices)
    return _option(default, _Choice(allowed, rule, doc, house, choices))


def integer(default: int | None, *, minimum: int, rule: str, doc: str, optional: bool = False,
            maximum: int = MAX_INT) -> Any:
    """An int in ``minimum..maximum`` (never a bool); ``optional`` also allows ``None`` (e.g. no cap)."""
    allowed = f"an int >= {minimum}" + (" or None" if optional else "")
    return _option(default, _Integer(allowed, rule, doc, False, minimum, optional, maximum))


def flag(default: bool, *, rule: str, doc: str, house: bool = False) -> Any:
    """``True`` or ``False`` (not 0 or 1); ``house`` as for :func:`choice`."""
    return _option(default, _Flag("true or false", rule, doc, house))


def int_list(default: tuple[int, ...], *, minimum: int, rule: str, doc: str, maximum: int = MAX_INT) -> Any:
    """A fixed-length list of ints in ``minimum..maximum``; stored as a tuple, logged as a list."""
    allowed = f"a list of {len(default)} ints >= {minimum}"
    return _option(default, _IntList(allowed, rule, doc, False, len(default), minimum, maximum))


@dataclass(frozen=True)
class OptionInfo:
    """One option as documentation shows it: ``default`` in its JSON form."""

    name: str
    allowed: str
    default: Any
    rule: str
    doc: str
    house: bool = False  # a house rule (a reading of the seed text the spec does not follow)


@dataclass(frozen=True)
class RuleOptions:
    """Base of a rule system's options: subclass as a frozen dataclass, set :attr:`system`, and make every field
    with :func:`choice`, :func:`integer`, :func:`flag` or :func:`int_list`."""

    #: The rule system's name as messages show it ("Guangdong").
    system: ClassVar[str] = "rule"

    def __post_init__(self) -> None:
        # Checked here, not only in from_mapping, so that direct construction cannot build an option set the spec
        # does not allow.
        for name, kind, _ in _specs(type(self)):
            value = getattr(self, name)
            try:
                checked = kind.check(value)
            except ValueError as why:
                raise HupaiError(f"{self.system} option {name!r} {why}, got {describe(value)}") from None
            if checked is not value:
                object.__setattr__(self, name, checked)

    @classmethod
    def from_mapping(cls: type[_Options], options: Mapping[str, Any] | _Options | None = None) -> _Options:
        """Build from a mapping of option names to values (a log's ``options`` included); missing names take
        their defaults, an instance is returned as it is. Unknown names raise :class:`HupaiError`."""
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        if not isinstance(options, Mapping):
            raise HupaiError(f"{cls.system} options must be a mapping, got {type(options).__name__}")
        known = [name for name, _, _ in _specs(cls)]
        unknown = sorted(name if type(name) is str else describe(name) for name in options if name not in known)
        if unknown:
            raise HupaiError(f"unknown {cls.system} option{'s' if len(unknown) > 1 else ''} "
                             f"{', '.join(repr(n) for n in unknown)} "
                             f"(known: {', '.join(sorted(known))})")
        return cls(**dict(options))

    def to_dict(self) -> dict[str, Any]:
        """Every option, JSON-ready, in field order (results and replay logs record it); a house rule only when
        it is not at its default (so logs from before it was added replay unchanged)."""
        out = {}
        for name, kind, default in _specs(type(self)):
            value = getattr(self, name)
            if not (kind.house and value == default):
                out[name] = kind.to_json(value)
        return out

    @classmethod
    def describe(cls) -> tuple[OptionInfo, ...]:
        """Each option's name, allowed values, default, spec rule id and meaning, in field order."""
        infos = []
        for spec in fields(cls):
            kind = _kind_of(cls, spec.name, spec.metadata)
            infos.append(OptionInfo(spec.name, kind.allowed, kind.to_json(spec.default), kind.rule, kind.doc,
                                    kind.house))
        return tuple(infos)


def _field_specs(cls: type) -> tuple[tuple[str, OptionKind, Any], ...]:
    """Each field of the options class ``cls``: its name, its kind and its default, in field order (every
    construction checks them all, and :meth:`RuleOptions.to_dict` reads them again)."""
    return tuple((spec.name, _kind_of(cls, spec.name, spec.metadata), spec.default) for spec in fields(cls))


# One entry per options class: a dataclass's fields are fixed once the class exists. (Typed as a plain callable:
# the cache's own signature asks for Hashable arguments, which mypy does not grant a dataclass's type.)
_specs: Callable[[type], tuple[tuple[str, OptionKind, Any], ...]] = cache(_field_specs)


def _kind_of(cls: type, name: str, metadata: Mapping[str, Any]) -> OptionKind:
    kind = metadata.get("option")
    if not isinstance(kind, OptionKind):
        # A programming error in a rule package, not a user's: every option must say what it accepts.
        raise HupaiError(f"{cls.__name__}.{name} is not declared with choice(), integer(), flag() or int_list()")
    return kind
