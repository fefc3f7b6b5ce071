"""广东麻将 Guangdong: the rule object the engine consults (flow) and the scoring it delegates to.

Flow rules (``../shared/rules/guangdong.md``), each answered by the base defaults or an override here:

- GD-1 136 tiles, GD-2 four players (base defaults); GD-4 the dealer gets 14 and the wall holds 83 after the
  deal.
- GD-5 seat winds: ``seat_wind="dealer_east"`` (the dealer is 东) or ``"fixed"`` (winds as first assigned).
- GD-6 round wind: advances when the deal returns to the match's first dealer; the match ends after 北.
- GD-7 the dealer's first turn has no draw; after 吃/碰 the claimant discards without drawing (engine).
- GD-8 ``wall_reserve``: draws stop at the reserve; the last discard may be won on but not claimed; no kong
  without a replacement tile.
- GD-9 胡/杠/碰 by anyone, 吃 by the 下家 only; GD-10 胡 > 杠/碰 > 吃 with several winners allowed.
- GD-11 漏胡 (``louhu`` option), cleared by a draw or a claim. GD-12 three kong types with replacement draws.
- GD-13 no kong money. GD-14 only a 补杠 can be robbed.
- GD-20/21 the special-win facts (杠上开花, 海底, 抢杠, 一炮三响; 天和/人和/地和) go into the WinContext.
- GD-26/28/29 liability is decided here from the table's history (GD-27 is the robbed player as discarder).
- GD-30 a drawn hand pays nothing; GD-31 the dealer repeats on a win or a drawn hand, else its 下家 deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from ...analysis import Forms
from ...hand import Meld
from ...scoring import ScoreResult, WinContext
from ..base import Rules, WinSource
from ..contract import TableView
from ..facts import Fact
from ..patterns import names_of
from .options import GuangdongOptions
from .patterns import BEYOND_LIMIT, EXTRAS, FLAT_WINS, MINIMUM_WINS, WITHIN_LIMIT
from .scoring import score_win

__all__ = ["GuangdongRules"]

_WINDS = frozenset(range(27, 31))
_DRAGONS = frozenset(range(31, 34))


class GuangdongRules(Rules):
    """Guangdong mahjong. Build with ``hupai.rules.get("guangdong", **options)``."""

    name: ClassVar[str] = "guangdong"
    pattern_unit: ClassVar[str] = "番"  # GD-16, GD-17: 番 add
    win_forms = Forms.STANDARD | Forms.THIRTEEN_ORPHANS  # GD-15: no seven pairs
    #: The spec is silent; Cantonese tables lay a 暗杠 with two tiles face up, so its kind is public.
    shows_concealed_kongs = True
    #: GD-5/6 winds, GD-20/21 event flags, GD-25..29 liability.
    context_fields: ClassVar[frozenset[str] | None] = frozenset({
        "seat_wind", "round_wind", "kong_replacement", "robbed_kong", "last_tile", "heavenly", "earthly", "human",
        "liable"})

    def __init__(self, options: Mapping[str, Any] | GuangdongOptions | None = None) -> None:
        if not isinstance(options, GuangdongOptions):
            options = GuangdongOptions.from_mapping(options)
        self.options = options
        self.louhu = self.options.louhu  # GD-11
        self.dead_wall = self.options.wall_reserve  # GD-8: the engine's wall end (Rules.can_draw)
        self._options_dict = options.to_dict()  # asked for by every log and snapshot: built once

    def options_dict(self) -> dict[str, Any]:
        return dict(self._options_dict)

    def __repr__(self) -> str:
        return f"GuangdongRules({self.options_dict()!r})"

    # GD-5
    def seat_winds(self, dealer: int, first_dealer: int) -> tuple[int, ...]:
        east = dealer if self.options.seat_wind == "dealer_east" else first_dealer
        return tuple((seat - east) % 4 for seat in range(4))

    # GD-8: no draw (and no kong) with only the reserve left (dead_wall, set from the option)
    def can_kong(self, table: TableView) -> bool:
        wall = table.wall
        return wall.tail - wall.head > self.dead_wall

    # GD-20, GD-21, GD-26, GD-28, GD-29
    def win_context(self, table: TableView, seat: int, tile: int, source: WinSource, discarder: int | None,
                    winners_on_tile: int) -> WinContext:
        context = super().win_context(table, seat, tile, source, discarder, winners_on_tile)
        dealer = table.dealer
        self_drawn = source in ("wall", "replacement", "dealt")
        context = replace(
            context,
            last_tile=self_drawn and source != "dealt" and not self.can_draw(table),  # 海底捞月
            human=(source == "discard" and discarder == dealer and seat != dealer
                   and table.discards_made[dealer] == 1 and sum(table.discards_made) == 1),
            earthly=(source == "wall" and seat != dealer and table.draws[seat] == 1 and table.calls == 0),
            liable=self.liable(table, seat, source) if self_drawn else None,
        )
        return context

    def liable(self, table: TableView, seat: int, source: WinSource) -> int | None:
        """The seat liable for ``seat``'s self-drawn win (GD-25: the first case listed decides), or None.

        GD-26: a replacement win after a kong on another player's discard makes that discarder liable. GD-28:
        the discarder whose tile gave the fourth wind or third dragon pung/kong. GD-29: the discarder whose
        tile gave the fourth meld (十二张落地), for the first such player only (包先不包后).
        """
        if source == "replacement" and table.kong_from >= 0:
            return table.kong_from
        melds = table.melds[seat]
        for group, needed in ((_WINDS, 4), (_DRAGONS, 3)):
            triplets = [m for m in melds if m.type != "chow" and m.tiles[0] in group]
            if len(triplets) >= needed and triplets[needed - 1].claimed_from is not None:
                return triplets[needed - 1].claimed_from
        if len(melds) == 4 and melds[3].claimed_from is not None:
            feeder = melds[3].claimed_from
            if _first_fed(table, feeder) == seat:
                return feeder
        return None

    def describe_facts(self, extras: Mapping[str, Any]) -> list[Fact]:
        """Guangdong keeps no public facts in ``extras`` (winds and the wall are the observation's own): what a
        table shows is its 番 limit (GD-18), the one number that decides what a hand is worth."""
        cap = self.options.cap_fan
        return [Fact("封顶", "Fan limit", f"{cap} 番 (beyond-limit hands score more; special wins at least {cap})")]

    def pattern_names(self) -> Mapping[str, tuple[str, str]]:
        """GD-16..21: the names of every pattern table."""
        return _NAMES

    def score(self, context: WinContext) -> ScoreResult:
        """GD-15..GD-29 (:func:`.scoring.score_win`); ``value`` is the 番 after the limit and minimums."""
        return score_win(self.prepare(context), self.options)


_NAMES = names_of(WITHIN_LIMIT, EXTRAS, BEYOND_LIMIT, MINIMUM_WINS, FLAT_WINS)


def _first_fed(table: TableView, feeder: int) -> int | None:
    """The first seat whose fourth meld came from ``feeder``'s discard (GD-29 包先不包后)."""
    for seat, index in table.meld_order:
        if index == 3:
            meld: Meld = table.melds[seat][3]
            if meld.claimed_from == feeder:
                return seat
    return None
