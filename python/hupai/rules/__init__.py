"""Rule systems: ``hupai.rules.get(name, **options)`` returns a rule-system object (DESIGN §4).

The registry maps a name to a factory taking the options mapping; an unknown name, option or option value
raises :class:`hupai.HupaiError`. Rule modules are imported on first use, so importing hupai stays cheap.

A rule package ``rules/<name>/`` has the same files as every other, so a new system copies one:

- ``options.py``: the spec's options table as a :class:`~hupai.rules.options.RuleOptions` subclass (checks,
  ``to_dict`` for logs, ``describe()``);
- ``patterns.py``: the spec's pattern tables, tuples of :class:`~hupai.rules.patterns.PatternEntry` (pinyin and
  Chinese name, rule id, value, predicate, what it replaces), one small named predicate per pattern;
- ``scoring.py``: how the entries combine (add, multiply, the best row) and who pays;
- ``rules.py``: the :class:`Rules` subclass the engine consults; ``advice.py``: playing advice for bots.

Helpers only one system needs sit beside them (Yunxiao's ``hand.py``: the gold and its fifth-copy room, asked
of the core's :func:`hupai.analysis.fits_with_jokers`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import HupaiError, InvalidHand
from ..hand import parse_hand
from ..jsonform import describe
from ..scoring import CONTEXT_DEFAULTS, ScoreResult, WinContext
from ..tiles import format_tiles, parse
from .base import Rules

if TYPE_CHECKING:  # pragma: no cover
    from .base_advice import Advice

__all__ = ["Rules", "advice", "context_of", "get", "names", "score"]

# name -> (module, class name). Each class takes one positional options mapping (None = defaults).
_REGISTRY: dict[str, tuple[str, str]] = {
    "guangdong": ("hupai.rules.guangdong.rules", "GuangdongRules"),
    "yunxiao": ("hupai.rules.yunxiao.rules", "YunxiaoRules"),
    "kawuxing": ("hupai.rules.kawuxing.rules", "KawuxingRules"),
    "waihuzi": ("hupai.rules.waihuzi.rules", "WaihuziRules"),
}


def names() -> list[str]:
    """The names of the rule systems available."""
    return sorted(_REGISTRY)


def get(name: str, options: Mapping[str, Any] | None = None, /, **kwargs: Any) -> Rules:
    """The rule system ``name`` built with ``options`` (a mapping) and/or keyword options.

    >>> get("guangdong", louhu="any_tile").options_dict()["louhu"]
    'any_tile'
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        raise HupaiError(f"unknown rule system {describe(name)} (known: {', '.join(names())})")
    if options is not None and not isinstance(options, Mapping):
        raise HupaiError(f"options must be a mapping, got {type(options).__name__}")
    merged = {**(options or {}), **kwargs}
    module_name, class_name = _REGISTRY[name]
    # Every registered class is a Rules subclass whose constructor takes the options mapping.
    system: Callable[[Mapping[str, Any]], Rules] = getattr(importlib.import_module(module_name), class_name)
    return system(merged)


# name -> the module holding that rule system's playing advice (its ``ADVICE``), imported on first use.
_ADVICE: dict[str, str] = {
    "guangdong": "hupai.rules.guangdong.advice",
    "yunxiao": "hupai.rules.yunxiao.advice",
    "kawuxing": "hupai.rules.kawuxing.advice",
    "waihuzi": "hupai.rules.waihuzi.advice",
}


def advice(name: str) -> Advice:
    """The playing advice of the rule system ``name`` for shanten-driven players (:mod:`.base_advice`),
    or the plain-tile defaults for a system that brings none (a rule system outside the registry included)."""
    module = _ADVICE.get(name)
    if module is None:
        from .base_advice import PLAIN
        return PLAIN
    found: Advice = importlib.import_module(module).ADVICE
    return found


def score(rules: Rules | str, context: WinContext | str, /, win_tile: int | str | None = None,
          **facts: Any) -> ScoreResult:
    """Score one win under ``rules`` (a rules object, or a rule-system name with its default options) without
    running a game (``hupai.score``).

    ``context`` is a :class:`WinContext`, or the winning hand in notation (:func:`hupai.parse_hand`: exposed
    melds in ``[]``, a concealed kong in ``()``) with ``facts`` as keywords naming WinContext fields
    (``winner`` defaults to 0; ``gold`` may be notation). A 14-tile hand holds its winning tile: ``win_tile``
    (notation or kind) names it, else it is the last concealed tile written; a 13-tile hand needs ``win_tile``.

    >>> score("guangdong", "111z123m456p789s55s", winner=1, discarder=2).payments  # GD-E6: 南 seat, 1 番
    (0, 2, -2, 0)

    Raises :class:`~hupai.NotAWin` when the hand is no win under these rules, :class:`~hupai.InvalidHand` for
    malformed input (a field the system does not use, given away from its default, included).
    """
    if isinstance(rules, str):
        rules = get(rules)
    elif not isinstance(rules, Rules):
        raise HupaiError(f"rules must be a rule-system name or a Rules object, got {type(rules).__name__}")
    if isinstance(context, str):
        context = context_of(context, win_tile, **facts)
    elif win_tile is not None or facts:
        raise HupaiError("win_tile and facts go with a hand in notation; a WinContext carries its own")
    return rules.score(context)


def context_of(hand: str, win_tile: int | str | None = None, **facts: Any) -> WinContext:
    """A :class:`WinContext` from a hand in notation and facts (see :func:`score`)."""
    parsed = parse_hand(hand)
    if parsed.implied:
        raise InvalidHand(f"{hand!r}: write the {parsed.implied} exposed meld(s) in brackets to score the hand")
    concealed = list(parsed.concealed)
    tile = _kind(win_tile, "win_tile") if win_tile is not None else None
    if parsed.size == 14:
        if tile is None:
            if not concealed:
                raise InvalidHand(f"{hand!r}: no concealed tile to win on")
            tile = concealed[-1]
        if tile not in concealed:
            raise InvalidHand(f"{hand!r}: the winning tile {format_tiles([tile])} is not among its concealed tiles")
        concealed.remove(tile)
    elif tile is None:
        raise InvalidHand(f"{hand!r} holds 13 tiles: name the winning tile (win_tile=...)")
    if facts.get("gold") is not None:
        facts["gold"] = _kind(facts["gold"], "gold")
    facts.setdefault("winner", 0)
    unknown = sorted(set(facts) - set(CONTEXT_DEFAULTS) - {"winner"})
    if unknown:
        raise InvalidHand(f"unknown WinContext field(s): {', '.join(unknown)}")
    if "melds" in facts:  # the hand's own melds: written in brackets, not given twice
        raise InvalidHand(f"{hand!r}: write the melds in the hand (in brackets), not as melds=...")
    return WinContext(win_tile=tile, concealed=tuple(concealed), melds=parsed.melds, **facts)


def _kind(value: int | str, what: str) -> int:
    if isinstance(value, str):
        kinds = parse(value)
        if len(kinds) != 1:
            raise InvalidHand(f"{what}={value!r} is not one tile")
        return kinds[0]
    if type(value) is not int or not 0 <= value < 34:
        raise InvalidHand(f"{what}={describe(value)} is not a tile")
    return value
