"""The one pattern-entry type of every rule system's pattern tables (番, factors, 名堂, scoring rows).

A rule package keeps one table per kind of pattern, a tuple of :class:`PatternEntry`, read top to bottom as the
spec's table. An entry is a row: its pinyin name, its Chinese name, the spec rule id, its value, and the
predicate that says whether it holds for the system's *subject* (a reading of the hand, a win context, the facts
of a win). The predicate is a small named function whose docstring gives the rule id and the definition.

How the values combine is the system's own rule, written once in its ``scoring.py``: Guangdong adds 番 and takes
the highest beyond-limit hand (GD-16..19), Kawuxing multiplies factors (KW-20), Wai Huzi multiplies 名堂
(WH-35), Yunxiao takes the row paying most (YX-39). What the systems share is here:

- ``replaces``: entries that do not count when this one holds (KW-21: 龙七对 replaces 七对; WH-36: 黑对子胡
  replaces 对子息 and 黑胡子, 对子息 replaces 行行息; YX-37: every other form replaces 平胡). :func:`counted`
  applies it: an entry named by any entry that holds is dropped, whether or not that entry counts itself.
- ``value_of``: a value that depends on the subject (WH-35: 火火翻 is ×2^(r−9) for r red cards).
- The value's type is the system's: an int of 番 or a factor, a row's amounts (Yunxiao), or ``None`` for a
  pattern that only selects a row.

Example, in the shape Kawuxing will use::

    def qi_dui(reading: Reading) -> bool:
        \"\"\"七对 (KW-20), ×4: seven pairs, no four identical.\"\"\"

    FACTORS: tuple[PatternEntry[Reading, int], ...] = (
        PatternEntry("qi_dui", "七对", "KW-20", 4, qi_dui, replaces=("an_si_gui_yi",), english="Seven Pairs"),
        PatternEntry("long_qi_dui", "龙七对", "KW-20", 8, long_qi_dui, replaces=("qi_dui", "an_si_gui_yi"),
                     english="Dragon Seven Pairs"),
        ...
    )
    value = product(counted(FACTORS, reading), reading)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any, Generic, TypeVar

from ..errors import HupaiError
from ..scoring import Pattern

__all__ = ["PatternEntry", "counted", "total", "product", "check_table", "names_of"]

Subject = TypeVar("Subject")
Value = TypeVar("Value")


@dataclass(frozen=True)
class PatternEntry(Generic[Subject, Value]):
    """One row of a pattern table.

    - ``name``: pinyin (``"qing_yi_se"``); ``chinese``: 清一色; ``rule``: the spec rule id(s) (``"GD-19"``).
    - ``value``: what the table gives the pattern (番, a factor, a row's amounts; ``None`` when it has none).
    - ``holds``: the predicate over the system's subject; its docstring is the definition.
    - ``replaces``: names of entries of the same table that do not count when this one holds.
    - ``value_of``: when the value depends on the subject, computes it (``value`` is then the smallest).
    - ``english``: the name in English (``"All One Suit"``), the usual mahjong term or a faithful gloss, so that
      a result can be shown as 清一色 All One Suit (:meth:`hupai.rules.Rules.pattern_names`).
    """

    name: str
    chinese: str
    rule: str
    value: Value
    holds: Callable[[Subject], bool]
    replaces: tuple[str, ...] = ()
    value_of: Callable[[Subject], Value] | None = None
    english: str = ""

    def applies(self, subject: Subject) -> bool:
        return self.holds(subject)

    def value_for(self, subject: Subject) -> Value:
        """The value when the pattern holds for ``subject``."""
        return self.value if self.value_of is None else self.value_of(subject)

    def pattern(self: PatternEntry[Any, int], value: int | None = None) -> Pattern:
        """The :class:`~hupai.scoring.Pattern` a result reports (``value`` overrides the table's)."""
        return Pattern(self.name, self.chinese, self.value if value is None else value, self.rule)

    @property
    def doc(self) -> str:
        """The predicate's docstring: the rule id and the definition."""
        return (self.holds.__doc__ or "").strip()


def counted(table: Iterable[PatternEntry[Subject, Value]], subject: Subject
            ) -> tuple[PatternEntry[Subject, Value], ...]:
    """The entries that hold for ``subject``, less those replaced by an entry that holds; table order."""
    held = [entry for entry in table if entry.holds(subject)]
    replaced = {name for entry in held for name in entry.replaces}
    return tuple(entry for entry in held if entry.name not in replaced)


def total(entries: Iterable[PatternEntry[Subject, int]], subject: Subject) -> int:
    """The sum of the entries' values (added 番, GD-16/17)."""
    return sum(entry.value_for(subject) for entry in entries)


def product(entries: Iterable[PatternEntry[Subject, int]], subject: Subject) -> int:
    """The product of the entries' values (multiplied factors, KW-20 and WH-35); 1 when there are none."""
    return prod(entry.value_for(subject) for entry in entries)


def check_table(*tables: Sequence[PatternEntry[Any, Any]]) -> None:
    """Names are unique across ``tables`` and every ``replaces`` names an entry of the same table.

    Rule packages call it on import: a misspelt name in ``replaces`` would otherwise silently replace nothing.
    """
    seen: set[str] = set()
    for table in tables:
        names = {entry.name for entry in table}
        for entry in table:
            if entry.name in seen:
                raise HupaiError(f"pattern {entry.name!r} appears twice")
            seen.add(entry.name)
            unknown = [name for name in entry.replaces if name not in names]
            if unknown:
                raise HupaiError(f"pattern {entry.name!r} replaces {unknown}, not in its table")


def names_of(*tables: Sequence[PatternEntry[Any, Any]]) -> dict[str, tuple[str, str]]:
    """Every entry's name to its Chinese and English names (what :meth:`hupai.rules.Rules.pattern_names`
    gives): the first entry of a name wins when tables share one."""
    out: dict[str, tuple[str, str]] = {}
    for table in tables:
        for entry in table:
            out.setdefault(entry.name, (entry.chinese, entry.english))
    return out
