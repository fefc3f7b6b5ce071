"""Guangdong playing advice (:mod:`hupai.rules.base_advice`): plain tiles in Guangdong's winning forms
(GD-15: standard and thirteen orphans, no seven pairs); no declaration is worth more than a win. A self-draw is paid
one share by each of the three others (GD-22) and adds 自摸's 番 (GD-17: a share is base x 2^番), a discard win one
share by the discarder alone under the default ``discard_pays="one"`` (GD-23): six times as much below the 番 cap,
which :class:`hupai.ev.EVBot` weighs."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from ..base_advice import Advice
from .rules import GuangdongRules

if TYPE_CHECKING:  # pragma: no cover
    from ...actions import Action
    from ...observation import Observation

__all__ = ["ADVICE", "GuangdongAdvice"]

_TILE = attrgetter("tile")
_WINDS = 27  # 东 南 西 北 are kinds 27..30, 中 发 白 31..33
_DRAGONS = (31, 32, 33)
#: The chance a hand that is this many tiles off one suit still ends as 混一色 (an estimate, GD-16).
_HALF_FLUSH_CHANCE = (1.0, 0.5, 0.2)
#: The 番 a concealed pair of a scoring honor is worth, in expectation (it may become a pung, GD-17).
_PAIR_FAN = 0.35

#: The chance a hand with no pung in sight (no pung melded, no three of a kind held, at most one honor kind
#: and that as a pair or a single) ends as 平胡 (an estimate, GD-16); with one three of a kind held, less.
_ALL_CHOWS_CHANCE = (0.6, 0.2)


def _held_fan(held: int) -> float:
    """The 番 of a scoring honor held ``held`` times (concealed and melded): a pung's 1, a pair's part of it."""
    return 1.0 if held >= 3 else _PAIR_FAN if held == 2 else 0.0


def _value(fan: float, off: int, all_chows: float, cap: float) -> float:
    """2^番 of a hand holding ``fan`` 番, ``off`` tiles off one suit (混一色's 2 番 in reach) and this chance of 平胡
    (1 番), at most 2^cap_fan (``cap``)."""
    half_flush = _HALF_FLUSH_CHANCE[off] if off < len(_HALF_FLUSH_CHANCE) else 0.0
    value: float = 2.0 ** fan * (1.0 + 3.0 * half_flush) * (1.0 + all_chows)
    return min(value, cap)


def _all_chows_chance(honors: list[int], counts: bytes, triples: int, pungs_melded: bool, less: int = -1) -> float:
    """How likely the concealed hand (``counts`` less one ``less``: its honor ``honors`` and suit ``triples``)
    ends as four chows and a pair (平胡, GD-16)."""
    if pungs_melded or len(honors) > 1 or (honors and counts[honors[0]] - (honors[0] == less) > 2):
        return 0.0
    return _ALL_CHOWS_CHANCE[triples] if triples < len(_ALL_CHOWS_CHANCE) else 0.0


class GuangdongAdvice(Advice):
    #: EVBot counts improving copies on the tiles it has not seen (paired screens against GreedyBots, docs/bots.md).
    ranks_live_copies = True
    #: A copy a pung could take comes from any of three other seats' discards as well as the wall, one a chow
    #: could take from the seat before's (GD-9): about 2.8 and 1.6 times as likely to reach the hand as a copy it
    #: must draw, if the other seats let most tiles they do not need go (an estimate).
    claim_access = (1.8, 0.6)

    def self_draw_ratio(self, observation: Observation) -> float:
        """GD-22 against GD-23, with 自摸's +1 番 doubling the share (GD-17; below the cap, as most hands are): 3 x 2
        shares against the discarder's 1, or against 3 with ``discard_pays="all_three"``."""
        return 6.0 if observation.options.get("discard_pays", "one") == "one" else 2.0

    def worth_kong(self, observation: Observation, kongs: Sequence[Action]) -> Action | None:
        """A kong that keeps the hand's shanten: its replacement draw is a free draw, and a self-draw on it is
        杠上开花 (GD-20: at least 3 番; on a kong claimed from a discard the discarder pays it, GD-26). No 补杠 of a
        suit tile: another seat may be waiting on it in a run, and a robbed kong costs three shares of at least
        3 番 (GD-27), where discarding the tile would cost one. An honor's 补杠 cannot be robbed: this seat holds
        all four copies."""
        return self.kong_for_free(observation, kongs)

    def discard_values(self, observation: Observation, discards: Sequence[Action]) -> list[float]:
        """GD-16..18: a share doubles per 番 up to the cap. Each discard's hand is worth 2^番 of what it holds
        toward the within-limit 番: pungs (and, part way, pairs) of dragons and of the seat and round winds
        (GD-17), and 混一色's 2 番 (GD-16) weighed by how near the hand is to one suit; at most ``cap_fan``."""
        seat = observation.seat
        counts = observation.counts
        own = observation.melds[seat]
        melded = [0] * 34
        for meld in own:
            for tile in meld.tiles:
                melded[tile] += 1
        pungs_melded = any(meld.type != "chow" for meld in own)
        scoring = dict.fromkeys(_DRAGONS, 1)
        seat_wind = _WINDS + observation.seat_winds[seat]
        round_wind = _WINDS + observation.round_wind
        scoring[seat_wind] = scoring.get(seat_wind, 0) + 1
        scoring[round_wind] = scoring.get(round_wind, 0) + 1
        cap = 2.0 ** int(observation.options.get("cap_fan", 3))
        # What the whole hand holds, then each discard as a change of it: this runs at most turns.
        fan = sum(worth * _held_fan(counts[kind] + melded[kind]) for kind, worth in scoring.items())
        suits = [sum(counts[s:s + 9]) + sum(melded[s:s + 9]) for s in (0, 9, 18)]
        honors = [kind for kind in range(27, 34) if counts[kind]]
        plain = counts[:27]
        triples = plain.count(3) + plain.count(4)
        by_suit: dict[tuple[int, bool], float] = {}  # a suit tile's value depends on its suit and a broken triple
        values = []
        for tile in map(_TILE, discards):
            held = counts[tile]
            if tile < 27:
                key = (tile // 9, held == 3)
                value = by_suit.get(key)
                if value is None:
                    suits[key[0]] -= 1
                    off = sum(suits) - max(suits)
                    suits[key[0]] += 1
                    chows = _all_chows_chance(honors, counts, triples - key[1], pungs_melded)
                    value = by_suit[key] = _value(fan, off, chows, cap)
                values.append(value)
                continue
            worth = scoring.get(tile)
            tile_fan = fan if worth is None else fan + worth * (_held_fan(held - 1 + melded[tile])
                                                                 - _held_fan(held + melded[tile]))
            chows = _all_chows_chance([k for k in honors if k != tile or held > 1], counts, triples, pungs_melded,
                                      tile)
            values.append(_value(tile_fan, sum(suits) - max(suits), chows, cap))
        return values


ADVICE = GuangdongAdvice(GuangdongRules.win_forms)
