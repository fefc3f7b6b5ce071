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

__all__ = ["Rules", "advice", "context_of", "get", "names", "score", "zipai_context_of"]

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


def score(rules: Rules | str, context: WinContext | str, /, win_tile: int | str | None = None, *,
          options: Mapping[str, Any] | None = None, **facts: Any) -> ScoreResult:
    """Score one win under ``rules`` (a rules object, or a rule-system name with its default options or the given
    ``options``, house rules included) without running a game (``hupai.score``).

    ``context`` is a :class:`WinContext`, or the winning hand in notation (:func:`hupai.parse_hand`: exposed
    melds in ``[]``, a concealed kong in ``()``) with ``facts`` as keywords naming WinContext fields
    (``winner`` defaults to 0; ``gold`` may be notation). A 14-tile hand holds its winning tile: ``win_tile``
    (notation or kind) names it, else it is the last concealed tile written; a 13-tile hand needs ``win_tile``.
    A Wai Huzi hand is written as ``hupai analyze --rules waihuzi`` reads it: cards with the declared groups in
    brackets (``"[歪 d8d8d8] x1 x1 ..."``, :func:`hupai.zipai.parse_groups`); a complete hand (20 cards plus one
    per 4-card group) holds its winning card, one at rest (19 plus one per 4-card group) needs ``win_tile``
    (``"x1"`` or a kind 0..19); ``shen_card`` may be a card's name too.

    >>> score("guangdong", "111z123m456p789s55s", winner=1, discarder=2).payments  # GD-E6: 南 seat, 1 番
    (0, 2, -2, 0)

    Raises :class:`~hupai.NotAWin` when the hand is no win under these rules, :class:`~hupai.InvalidHand` for
    malformed input (a field the system does not use, given away from its default, included).
    """
    if isinstance(rules, str):
        rules = get(rules, options)
    elif options is not None:
        raise HupaiError("options go with a rule-system name; a rules object carries its own")
    elif not isinstance(rules, Rules):
        raise HupaiError(f"rules must be a rule-system name or a Rules object, got {type(rules).__name__}")
    if isinstance(context, str):
        read = zipai_context_of if rules.family == "zipai" else context_of
        context = read(context, win_tile, **facts)
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
    tile = _winning(hand, concealed, tile, parsed.size, parsed.size == 14, "tile",
                    lambda kind: format_tiles([kind]))
    if facts.get("gold") is not None:
        facts["gold"] = _kind(facts["gold"], "gold")
    return WinContext(win_tile=tile, concealed=tuple(concealed), melds=parsed.melds, **_facts(hand, facts))


def _winning(hand: str, held: list[int], tile: int | None, size: int, complete: bool, word: str,
             name: Callable[[int], str]) -> int:
    """The winning tile (or card) of a hand in notation: ``tile``, else for a ``complete`` hand the last one
    held, which is then taken out of ``held``; a hand one short must name it."""
    if complete:
        if tile is None:
            if not held:
                raise InvalidHand(f"{hand!r}: no concealed {word} to win on")
            tile = held[-1]
        if tile not in held:
            raise InvalidHand(f"{hand!r}: the winning {word} {name(tile)} is not among its concealed {word}s")
        held.remove(tile)
    elif tile is None:
        raise InvalidHand(f"{hand!r} holds {size} {word}s: name the winning {word} (win_tile=...)")
    return tile


def _facts(hand: str, facts: dict[str, Any]) -> dict[str, Any]:
    """The WinContext fields given beside a hand in notation, checked by name; ``winner`` 0 by default."""
    facts.setdefault("winner", 0)
    unknown = sorted(set(facts) - set(CONTEXT_DEFAULTS) - {"winner"})
    if unknown:
        raise InvalidHand(f"unknown WinContext field(s): {', '.join(unknown)}")
    if "melds" in facts:  # the hand's own melds: written in brackets, not given twice
        raise InvalidHand(f"{hand!r}: write the melds in the hand (in brackets), not as melds=...")
    return facts


def zipai_context_of(hand: str, win_tile: int | str | None = None, **facts: Any) -> WinContext:
    """A Wai Huzi :class:`WinContext` from cards and bracketed groups in notation (see :func:`score`)."""
    from ..zipai import COPIES, NUM_KINDS, card_name, parse
    from .waihuzi.describe import parse_hand as parse_cards

    if not isinstance(hand, str):
        raise InvalidHand(f"a hand in notation is a str, got {type(hand).__name__}")
    cards, groups = parse_cards(hand)
    fours = sum(1 for group in groups if len(group.cards) == 4)
    total = len(cards) + sum(len(group.cards) for group in groups)
    used = [0] * NUM_KINDS
    for card in (*cards, *(c for group in groups for c in group.cards)):
        used[card] += 1
    if max(used) > COPIES:
        raise InvalidHand(f"{hand!r}: more than {COPIES} of {card_name(used.index(max(used)))}")

    def card_of(value: int | str, what: str) -> int:
        kinds = parse(value) if isinstance(value, str) else [value]
        if len(kinds) != 1 or type(kinds[0]) is not int or not 0 <= kinds[0] < NUM_KINDS:
            raise InvalidHand(f"{what}={describe(value)} is not one Wai Huzi card (x1..x10, d1..d10 or 0..19)")
        return kinds[0]

    if total not in (19 + fours, 20 + fours):
        raise InvalidHand(f"{hand!r}: {total} cards; a Wai Huzi win is {20 + fours} cards with its winning card "
                          f"or {19 + fours} and win_tile (hand and groups together, WH-11)")
    tile = None if win_tile is None else card_of(win_tile, "win_tile")
    tile = _winning(hand, cards, tile, total, total == 20 + fours, "card", card_name)
    if facts.get("shen_card") is not None:
        facts["shen_card"] = card_of(facts["shen_card"], "shen_card")
    return WinContext(win_tile=tile, concealed=tuple(cards), melds=tuple(groups), **_facts(hand, facts))


def _kind(value: int | str, what: str) -> int:
    if isinstance(value, str):
        kinds = parse(value)
        if len(kinds) != 1:
            raise InvalidHand(f"{what}={value!r} is not one tile")
        return kinds[0]
    if type(value) is not int or not 0 <= value < 34:
        raise InvalidHand(f"{what}={describe(value)} is not a tile")
    return value
