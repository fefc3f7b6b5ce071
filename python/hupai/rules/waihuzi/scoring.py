"""Wai Huzi scoring (WH-28..44): is the context a win, its best layout, the 名堂 product, the 元, who pays.

Score = 底息 × 名堂 × 内元 × 外元 (WH-33), where 底息 is the layout's total 息 and the layout is the one the core
finds highest-scoring among those reaching ``min_huxi`` (WH-31, WH-32). The 名堂 that depend on how the hand was
won (天胡, 地胡, 报听, 海底捞, 神腰) multiply every layout alike, so they come on top of the core's choice. Each
loser pays the score, capped at ``cap`` (WH-42, WH-43); the winner receives both payments.
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import Any, TypedDict

from ... import zipai
from ...errors import HupaiError, InvalidHand, NotAWin  # NotAWin: hupai's one class, re-exported here
from ...jsonform import describe
from ...scoring import Pattern, ScoreResult, WinContext
from ...tiles import is_integer
from ...zipai.analysis import SourceLike
from ..patterns import counted, product
from .house import best_house_layout, changes_layouts, dandiao_xi
from .options import WaihuziOptions
from .patterns import CONTEXT_MINGTANG, MINGTANG, Win

__all__ = ["NotAWin", "NUM_PLAYERS", "USED_FIELDS", "CoreOptions", "check_context", "best_layout", "score_win",
           "shen_of", "shenyao", "core_options", "core_min_huxi"]

NUM_PLAYERS = 3  # WH-3

#: The :class:`~hupai.scoring.WinContext` fields a Wai Huzi win reads; every other field must keep its default.
USED_FIELDS = frozenset({"winner", "win_tile", "concealed", "melds", "discarder", "dealer", "num_players",
                         "heavenly", "earthly", "last_tile", "ready_from_deal", "shen", "shen_card"})

# The core's bound on min_huxi; no layout reaches 1000 息 (seven units of at most 4 each), so a larger minimum
# means the same as 1000: nothing wins.
_MAX_MIN_HUXI = 1000


def shen_of(card: int) -> str:
    """The session 神 a shown card decides (WH-5): ``"odd"`` (单神) for 1 3 5 7 9, ``"even"`` (双神) for 2 4 6 8 10."""
    return "odd" if zipai.value_of(card) % 2 else "even"


def shenyao(shen: str, card: int) -> bool:
    """神腰 (WH-39): the card turned up after the win has the parity of the session 神."""
    return shen_of(card) == shen


def _seat(context: WinContext, name: str, value: Any, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < NUM_PLAYERS:
        raise HupaiError(f"Wai Huzi: {name} must be a seat 0..{NUM_PLAYERS - 1}"
                         f"{' or None' if optional else ''}, got {value!r}")
    return value


def _card(name: str, value: Any) -> int:
    if isinstance(value, bool) or not is_integer(value) or not 0 <= value < zipai.NUM_KINDS:
        raise InvalidHand(f"Wai Huzi: {name} must be a card kind 0..19, got {value!r}")
    return int(value)


#: Each WinContext field Wai Huzi does not use, with its default (made once: every win is checked against them).
_UNUSED = tuple((spec.name, spec.default_factory() if callable(spec.default_factory) else spec.default)
                for spec in fields(WinContext) if spec.name not in USED_FIELDS)


_CARDS = frozenset(range(zipai.NUM_KINDS))  # with the type check: plain ints 0..19, as _card accepts them


def _check_unused(context: WinContext) -> None:
    for name, default in _UNUSED:
        if getattr(context, name) != default:
            raise HupaiError(f"Wai Huzi does not use WinContext.{name} (got {getattr(context, name)!r}); "
                             f"leave it at its default {default!r}")


class _Facts:
    """A checked context: the core's arguments for the win and the facts its 名堂 need."""

    __slots__ = ("hand", "groups", "win_card", "source", "shen")

    def __init__(self, hand: list[int], groups: list[zipai.Declared], win_card: int | None, source: SourceLike,
                 shen: str | None) -> None:
        self.hand = hand
        self.groups = groups
        self.win_card = win_card
        self.source = source
        self.shen = shen


def check_context(context: WinContext, options: WaihuziOptions) -> _Facts:
    """Check that ``context`` is a well-formed Wai Huzi win (not yet that it splits): :class:`InvalidHand` for
    malformed cards or groups, :class:`HupaiError` for a field Wai Huzi does not use or facts that contradict."""
    if not isinstance(context, WinContext):
        raise HupaiError(f"expected a hupai.WinContext, got {type(context).__name__}")
    if context.num_players not in (None, NUM_PLAYERS):  # None: the system's own
        raise HupaiError(f"Wai Huzi has {NUM_PLAYERS} players (WH-3): num_players must be 3, got "
                         f"{context.num_players!r}")
    _check_unused(context)
    winner = _seat(context, "winner", context.winner)
    dealer = _seat(context, "dealer", context.dealer)
    discarder = _seat(context, "discarder", context.discarder, optional=True)
    if discarder == winner:
        raise HupaiError(f"Wai Huzi: seat {winner} cannot win on its own discard (WH-32); a card the winner "
                         f"turned up itself has discarder=None")
    win_tile = _card("win_tile", context.win_tile)
    if not isinstance(context.concealed, (tuple, list)):
        raise InvalidHand(f"Wai Huzi: concealed must be a tuple of card kinds, got {type(context.concealed).__name__}")
    hand = list(context.concealed)
    if not (all(type(kind) is int for kind in hand) and _CARDS.issuperset(hand)):  # noqa: E721 (no bool)
        hand = [_card(f"concealed[{pos}]", kind) for pos, kind in enumerate(context.concealed)]
    if not isinstance(context.melds, (tuple, list)):
        raise InvalidHand(f"Wai Huzi: melds must be a tuple of hupai.zipai.Declared, "
                          f"got {type(context.melds).__name__}")
    groups: list[zipai.Declared] = []
    for pos, group in enumerate(context.melds):
        if not isinstance(group, zipai.Declared):
            raise InvalidHand(f"Wai Huzi: melds[{pos}] is {describe(group)}, "
                              f"not a hupai.zipai.Declared (歪 碰 溜 飘 吃)")
        try:
            group.as_core()
        except InvalidHand as why:
            raise InvalidHand(f"Wai Huzi: melds[{pos}]: {why}") from None
        groups.append(group)
    counts = [0] * zipai.NUM_KINDS
    for kind in (*hand, win_tile, *(card for group in groups for card in group.cards)):
        counts[kind] += 1
    over = [kind for kind in range(zipai.NUM_KINDS) if counts[kind] > zipai.COPIES]
    if over:
        raise InvalidHand(f"Wai Huzi: {counts[over[0]]} copies of {zipai.card_name(over[0])} among the hand, the "
                          f"winning card and the groups; there are 4 of each card (WH-1)")
    fours = sum(1 for group in groups if len(group.cards) == 4)
    total = sum(counts)
    if total != 20 + fours:
        raise InvalidHand(f"Wai Huzi: a winning layout has 20 cards plus one per 4-card group (WH-11, WH-28): "
                          f"{len(hand)} in the hand + the winning card + {total - len(hand) - 1} in "
                          f"{len(groups)} group(s) make {total}, not {20 + fours}")
    for name in ("heavenly", "earthly", "last_tile", "ready_from_deal"):
        if not isinstance(getattr(context, name), bool):
            raise HupaiError(f"Wai Huzi: {name} must be a bool, got {getattr(context, name)!r}")
    if context.heavenly:
        if winner != dealer or discarder is not None or groups:
            raise HupaiError("Wai Huzi: 天胡 (heavenly, WH-40) is the dealer's own 20 dealt cards: winner == dealer, "
                             "discarder None, no groups")
        if context.earthly or context.last_tile:
            raise HupaiError("Wai Huzi: 天胡 (heavenly) comes before any card is played: not earthly nor last_tile")
    if context.earthly and (winner == dealer or discarder != dealer):
        raise HupaiError("Wai Huzi: 地胡 (earthly) is a non-dealer winning on the dealer's first discard: "
                         "winner != dealer and discarder == dealer")
    shen = _shen(context, options)
    if context.heavenly:  # the 20 dealt cards, no winning card: every triplet is a 坎 (WH-28, WH-40)
        return _Facts([*hand, win_tile], groups, None, None, shen)
    return _Facts(hand, groups, win_tile, "self" if discarder is None else "other", shen)


def _shen(context: WinContext, options: WaihuziOptions) -> str | None:
    if context.shen not in (None, "odd", "even"):
        raise HupaiError(f"Wai Huzi: shen must be None, 'odd' or 'even', got {context.shen!r}")
    if context.shen is not None and options.shen is not None and context.shen != options.shen:
        raise HupaiError(f"Wai Huzi: the context's shen {context.shen!r} contradicts the shen option "
                         f"{options.shen!r} (WH-5)")
    shen = context.shen if context.shen is not None else options.shen
    if context.shen_card is not None:
        _card("shen_card", context.shen_card)
        if shen is None:
            raise HupaiError("Wai Huzi: a shen_card (神腰, WH-39) needs the session 神: set shen or the shen option")
    return shen


class CoreOptions(TypedDict):
    """The options the core's split functions take (:func:`hupai.zipai.best_split` and the others)."""

    xingxingxi: str
    daxiaozihu: bool
    extra_mingtang: bool


def core_options(options: WaihuziOptions) -> CoreOptions:
    return {"xingxingxi": options.xingxingxi, "daxiaozihu": options.daxiaozihu,
            "extra_mingtang": options.extra_mingtang}


def core_min_huxi(options: WaihuziOptions) -> int:
    """``min_huxi`` as the core takes it (at most 1000: no layout comes near, so a larger minimum means the same)."""
    return min(options.min_huxi, _MAX_MIN_HUXI)


def best_layout(facts: _Facts, options: WaihuziOptions) -> zipai.Layout:
    """The layout a win is scored by (WH-31, WH-32); :class:`NotAWin` saying why when there is none. Under a house
    rule that changes what a layout is worth (WH-30, WH-35: :mod:`.house`) the choice is made there."""
    if changes_layouts(options):
        layout = best_house_layout(facts.hand, facts.groups, facts.win_card, facts.source, options)
    else:
        layout = zipai.best_split(facts.hand, facts.groups, facts.win_card, facts.source,
                                  min_huxi=core_min_huxi(options), **core_options(options))
    if layout is not None:
        return layout
    described = zipai.format_cards(facts.hand) + ("" if facts.win_card is None else
                                                  f" + {zipai.card_name(facts.win_card)} ({facts.source})")
    if facts.groups:
        described = " ".join(map(str, facts.groups)) + " " + described
    layouts = zipai.splits(facts.hand, facts.groups, facts.win_card, facts.source,
                           **core_options(options))
    if not layouts:
        raise NotAWin(f"Wai Huzi: {described} does not split into 3-card groups and one pair or 门子 (WH-28)")
    most = max(layout.xi for layout in layouts)
    raise NotAWin(f"Wai Huzi: {described} has at most {most} 息, below min_huxi {options.min_huxi} (WH-32)")


def _part_data(part: zipai.Part) -> dict[str, Any]:
    return dict(_part_items(int(part.type), part.cards, part.xi))  # a key of plain values: hashed in C


@lru_cache(maxsize=4096)  # a memo of a pure function of small plain values: a win writes each part out
def _part_items(type_: int, cards: tuple[int, ...], xi: int) -> tuple[tuple[str, Any], ...]:
    part = zipai.Part(zipai.PartType(type_), cards, xi)
    return (("type", part.type.name.lower()), ("chinese", str(part).split()[0].lstrip("[")),
            ("cards", zipai.format_cards(list(part.cards))), ("xi", part.xi), ("declared", part.declared),
            ("unit", part.is_unit))


def score_win(context: WinContext, options: WaihuziOptions) -> ScoreResult:
    """Score one Wai Huzi win (WH-28..44).

    ``value`` is what each loser pays: the score after the cap (WH-43); ``details["score"]`` is the score before
    it. ``payments``: the winner +2 × value, each other seat −value (a 死手 loser too, WH-42). ``details`` also
    holds the 息 breakdown (``parts``: each group and the unit with its 息, in order, declared groups first),
    the layout as text (``layout``), ``xi`` (底息), ``inner_yuan`` / ``outer_yuan`` (the 元 values) and their
    factor, the 名堂 product, and ``capped``.
    """
    facts = check_context(context, options)
    layout = best_layout(facts, options)
    win = Win(layout, strict=options.xingxingxi == "strict", daxiaozihu=options.daxiaozihu,
              extra=options.extra_mingtang, heavenly=context.heavenly, earthly=context.earthly,
              ready_from_deal=context.ready_from_deal, haidi=context.last_tile and options.haidilao,
              shenyao=context.shen_card is not None and facts.shen is not None
              and shenyao(facts.shen, context.shen_card), yidianhong_hand=options.yidianhong == "hand")
    entries = counted(MINGTANG, win)
    mingtang = product(entries, win)
    yuan = 4 ** len(layout.inner_yuan) * 2 ** len(layout.outer_yuan)
    bonus = dandiao_xi(layout, options)  # WH-30's house rule; 0 under the spec
    xi = layout.xi + bonus
    score = xi * mingtang * yuan
    context_factor = product((e for e in entries if e.name in _CONTEXT_NAMES), win)
    # Under the spec the table and the core must agree (tests prove it); a difference is a bug, never a score to
    # pay. A house rule that changes layout scores (.house) is scored by the table alone.
    if not changes_layouts(options) and score != layout.score * context_factor:
        raise HupaiError(f"Wai Huzi: the 名堂 table gives {score} but the core scored the layout {layout} "
                         f"(× {context_factor})")
    value = score if options.cap is None else min(score, options.cap)
    payments = [-value] * NUM_PLAYERS
    payments[context.winner] = value * (NUM_PLAYERS - 1)
    patterns = tuple(Pattern(e.name, e.chinese, e.value_for(win)) for e in entries)
    details = {
        "xi": xi,
        "parts": [_part_data(part) for part in layout.parts],
        "layout": " ".join(map(str, layout.parts)),
        "inner_yuan": [zipai.card_name(kind) for kind in layout.inner_yuan],
        "outer_yuan": [zipai.card_name(kind) for kind in layout.outer_yuan],
        "yuan_factor": yuan,
        "mingtang_factor": mingtang,
        "score": score,
        "capped": value != score,
        "rules": {e.name: e.rule for e in entries},
    }
    if bonus:
        details["dandiao_xi"] = bonus  # WH-30's house rule: the 5 息 of the single wait, in "xi" too
    return ScoreResult(patterns, value, tuple(payments), details)


_CONTEXT_NAMES = frozenset(entry.name for entry in CONTEXT_MINGTANG)
