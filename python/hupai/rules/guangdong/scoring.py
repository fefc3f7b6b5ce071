"""Guangdong (广东麻将) scoring: how the pattern tables combine into a hand's 番 and its payments.

:func:`score_win` is the entry point (GD-15 .. GD-29):

1. The hand must be complete in the standard form or as 十三幺 (GD-15; no seven pairs). Every reading of it is
   scored and the best one kept: beyond-limit hands outrank within-limit ones (GD-19), then the higher 番.
2. A reading with beyond-limit hands scores the highest of them alone, with no extras (GD-19). Otherwise its
   within-limit patterns (GD-16) and extras (GD-17) add, limited to ``cap_fan`` (GD-18).
3. 天和 / 人和 / 地和 replace that with a flat 6 番 (GD-21).
4. 杠上开花 / 海底捞月 / 抢杠 / 一炮三响 raise the value to at least ``cap_fan`` (GD-20).
5. Settlement (``settlement.py``): shares of ``base * 2**fan`` (GD-3, GD-22 .. GD-29).

Several winners on one discard or one robbed kong (GD-24): call :func:`score_win` once per winner, each with
``winners_on_tile`` set to the number of winners. Each result's payments cover only that winner's win; the
table's payments for the tile are their per-seat sum.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from numbers import Integral
from typing import Literal

from ...analysis import Decomposition, Forms, decompositions
from ...errors import InvalidHand, NotAWin
from ...scoring import Pattern, ScoreResult, WinContext
from ...tiles import NUM_KINDS, format_tiles
from ..patterns import counted, total
from .options import GuangdongOptions
from .patterns import BEYOND_LIMIT, EXTRAS, FLAT_FAN, FLAT_WINS, MINIMUM_WINS, WITHIN_LIMIT, Reading
from .settlement import PLAYERS, settle

__all__ = ["Evaluation", "score_win", "evaluate", "readings_of", "check_context"]


@dataclass(frozen=True)
class Evaluation:
    """One reading scored by GD-16 .. GD-19: the patterns that count, the value before and after the limit.

    ``also`` names the beyond-limit hands that applied but do not count because they do not stack (GD-19).
    """

    reading: Reading
    patterns: tuple[Pattern, ...]
    value: int
    fan_before_limit: int
    beyond_limit: bool
    also: tuple[str, ...] = ()

    @property
    def rank(self) -> tuple[bool, int, int]:
        """How readings compare: beyond-limit hands first (GD-19), then the value, then the unlimited sum."""
        return (self.beyond_limit, self.value, self.fan_before_limit)


def evaluate(reading: Reading, cap_fan: int) -> Evaluation:
    """Score one reading: the highest beyond-limit hand alone (GD-19), else the capped within-limit patterns
    plus extras (GD-16 .. GD-18)."""
    beyond = counted(BEYOND_LIMIT, reading)
    if beyond:
        # max keeps the first of equal values, so ties go to the earlier table entry (spec order).
        top = max(beyond, key=lambda entry: entry.value)
        others = tuple(entry.name for entry in beyond if entry is not top)
        return Evaluation(reading, (top.pattern(),), top.value, top.value, True, others)
    within = counted((*WITHIN_LIMIT, *EXTRAS), reading)
    fan = total(within, reading)
    return Evaluation(reading, tuple(entry.pattern() for entry in within), min(fan, cap_fan), fan, False)


def check_context(context: WinContext) -> None:
    """Reject a context that cannot be a Guangdong win, naming what is wrong (engine bugs fail loudly)."""
    def seat_ok(seat: int | None) -> bool:
        return seat is None or (isinstance(seat, Integral) and 0 <= seat < PLAYERS)

    if context.num_players not in (None, PLAYERS):  # None: the system's own
        raise InvalidHand(f"Guangdong is played by {PLAYERS} players (GD-2), "
                         f"got num_players={context.num_players!r}")
    for name in ("winner", "dealer", "discarder", "liable"):
        value = getattr(context, name)
        if not seat_ok(value) or (value is None and name in ("winner", "dealer")):
            raise InvalidHand(f"{name}={getattr(context, name)!r} is not a seat in 0..{PLAYERS - 1}")
    if context.seat_wind is None:
        raise InvalidHand("seat_wind is None: score through GuangdongRules (hupai.score), which derives it")
    for name in ("seat_wind", "round_wind"):
        if getattr(context, name) not in range(4):
            raise InvalidHand(f"{name}={getattr(context, name)!r} is not a wind in 0..3 (东南西北)")
    if context.discarder == context.winner:
        raise InvalidHand(f"the winner P{context.winner} cannot also be the discarder")
    if context.liable == context.winner:
        raise InvalidHand(f"the winner P{context.winner} cannot be liable for its own win")
    if context.jokers:
        raise InvalidHand(f"Guangdong has no jokers, got jokers={context.jokers}")
    if not 0 <= context.win_tile < NUM_KINDS:
        raise InvalidHand(f"win_tile={context.win_tile!r} is not a kind in 0..33")
    if context.winners_on_tile not in (1, 2, 3):
        raise InvalidHand(f"winners_on_tile={context.winners_on_tile!r} must be 1, 2 or 3")
    if context.winners_on_tile > 1 and context.self_drawn:
        raise InvalidHand("several winners need a discard or a robbed kong, but discarder is None")
    _check_flags(context)
    _check_tiles(context)


def _check_flags(context: WinContext) -> None:
    """The special-win flags must agree with who won from whom (GD-20, GD-21, GD-27)."""
    if context.kong_replacement and not context.self_drawn:
        raise InvalidHand("kong_replacement (杠上开花) is a self-draw: discarder must be None "
                         "(GD-26 names the 点杠者 through liable)")
    if context.robbed_kong and context.self_drawn:
        raise InvalidHand("robbed_kong (抢杠) needs the robbed player as discarder (GD-27)")
    flags = [name for name in ("heavenly", "earthly", "human") if getattr(context, name)]
    if len(flags) > 1:
        raise InvalidHand(f"at most one of 天和/地和/人和 applies, got {', '.join(flags)}")
    if context.heavenly and (context.winner != context.dealer or not context.self_drawn):
        raise InvalidHand("天和 (heavenly) is the dealer's self-drawn win (GD-21)")
    if context.earthly and (context.winner == context.dealer or not context.self_drawn):
        raise InvalidHand("地和 (earthly) is a non-dealer's self-drawn win (GD-21)")
    if context.human and (context.winner == context.dealer or context.discarder != context.dealer):
        raise InvalidHand("人和 (human) is a non-dealer's win on the dealer's discard (GD-21)")


def _check_tiles(context: WinContext) -> None:
    melds = context.mahjong_melds()
    held = len(context.concealed) + 3 * len(melds)
    if held != 13:
        raise InvalidHand(f"the winner must hold 13 tiles before the winning tile (a kong counts 3): "
                         f"{len(context.concealed)} concealed + {len(melds)} melds = {held}")
    for kind in context.concealed:
        if isinstance(kind, bool) or not isinstance(kind, Integral) or not 0 <= kind < NUM_KINDS:
            raise InvalidHand(f"concealed holds {kind!r}, not a kind in 0..33")
    declared = (kind for meld in melds for kind in meld.tiles)
    counts = Counter([*context.concealed, context.win_tile, *declared])
    over = sorted(kind for kind, count in counts.items() if count > 4)
    if over:
        raise InvalidHand(f"more than four tiles of {format_tiles(over)} in the winning hand")


def _reading(decomposition: Decomposition, context: WinContext) -> Reading:
    groups = decomposition.groups
    tiles = Counter([*context.concealed, context.win_tile])
    form: Literal["standard", "thirteen_orphans"]
    if decomposition.form == Forms.THIRTEEN_ORPHANS:
        # The duplicated kind, read off the tiles whatever groups the core reports for this form.
        form, pair = "thirteen_orphans", max(tiles, key=lambda kind: tiles[kind])
    else:
        form, pair = "standard", next(group.tiles[0] for group in groups if group.type == "pair")
    melds = context.mahjong_melds()
    chows = [meld.kind for meld in melds if meld.type == "chow"]
    chows += [group.tiles[0] for group in groups if group.type == "chow"]
    pungs = [meld.kind for meld in melds if meld.is_triplet]
    pungs += [group.tiles[0] for group in groups if group.type == "pung"]
    return Reading(
        form, pair, tuple(chows), tuple(pungs),
        concealed=tuple(sorted(context.concealed)),
        melded=bool(context.melds),
        # 抢杠 counts as 自摸 (GD-27); 杠上开花 is a self-draw already (GD-26).
        self_drawn=context.self_drawn or context.robbed_kong,
        seat_wind=_wind(context.seat_wind),
        round_wind=context.round_wind,
    )


def _wind(wind: int | None) -> int:
    if wind is None:  # check_context refuses it; score_win derives it first
        raise InvalidHand("seat_wind is None: derive it first (GuangdongRules.prepare)")
    return wind


def readings_of(context: WinContext) -> list[Reading]:
    """Every reading of the winning hand (GD-15: the standard form or 十三幺, no seven pairs).

    Raises :class:`~hupai.NotAWin` when the hand is not complete.
    """
    tiles = [*context.concealed, context.win_tile]
    found = decompositions(tiles, melds=len(context.melds), forms=Forms.STANDARD | Forms.THIRTEEN_ORPHANS)
    if not found:
        melds = " ".join(str(meld) for meld in context.melds)
        raise NotAWin(f"not a winning hand: {format_tiles(list(context.concealed))} + "
                         f"{format_tiles([context.win_tile])}{' ' + melds if melds else ''} is neither four "
                         f"melds and a pair nor 十三幺 (GD-15; Guangdong has no seven pairs)")
    return [_reading(decomposition, context) for decomposition in found]


def score_win(context: WinContext, options: GuangdongOptions) -> ScoreResult:
    """Score and settle one Guangdong win (GD-3, GD-15 .. GD-29).

    ``value`` is the final 番 after the limit and the minimums; ``payments`` settle this winner only (see the
    module docstring for several winners). ``patterns`` lists what counts: the within-limit patterns and
    extras, or the one beyond-limit hand, or the flat 天和/人和/地和; then any GD-20 special win, reported
    with the minimum it guarantees (``cap_fan``) as its value.

    Raises :class:`~hupai.NotAWin` if the hand is not complete, :class:`~hupai.InvalidHand` if the context is
    inconsistent. ``seat_wind=None`` is the winner's wind under ``options.seat_wind`` (GD-5).
    """
    if context.seat_wind is None and isinstance(context.winner, int) and 0 <= context.winner < PLAYERS:
        east = context.dealer if options.seat_wind == "dealer_east" or context.first_dealer is None \
            else context.first_dealer
        if isinstance(east, int):
            context = replace(context, seat_wind=(context.winner - east) % PLAYERS)
    check_context(context)
    best = max((evaluate(reading, options.cap_fan) for reading in readings_of(context)), key=lambda e: e.rank)
    patterns, value = best.patterns, best.value
    flat = counted(FLAT_WINS, context)
    if flat:
        # GD-21: a flat 6 that replaces the hand's own patterns (no extras, no stacking).
        patterns, value = (flat[0].pattern(),), FLAT_FAN
    minimum = counted(MINIMUM_WINS, context)
    if minimum:
        # GD-20: within-limit hands (<= cap_fan) score exactly cap_fan, higher values keep theirs.
        value = max(value, options.cap_fan)
        patterns += tuple(entry.pattern(options.cap_fan) for entry in minimum)
    settlement = settle(context, value, options)
    reading = str(best.reading)
    details = {
        "share": settlement.share,
        "paid_by": dict(settlement.paid_by),
        "rule": settlement.rule,
        "liable": settlement.liable,
        "reading": reading,
        "fan_before_limit": best.fan_before_limit,
        "beyond_limit": best.beyond_limit,
        "not_stacked": best.also,
        "options": options.to_dict(),
    }
    return ScoreResult(patterns, value, settlement.payments, details, reading=reading)
