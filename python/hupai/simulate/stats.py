"""Accumulators of simulated hands: exact, mergeable, independent of the order hands arrive in.

Workers each fill a :class:`Stats` for their chunk of hands and the driver merges them as they come back, in
whatever order. Everything kept is an integer count or sum (payments and values are ints in every rule
system), so a merge is exact and the merged totals are the same for any split of the hands into chunks and any
arrival order: the determinism tests compare them for equality, not within a tolerance. Means, standard
deviations and confidence intervals are computed from the totals only when asked.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import HupaiError
from ..game.result import HandResult
from ..jsonform import dict_in, json_text

__all__ = ["BotStats", "Interval", "OUTCOMES", "SeatStats", "Stats", "mean_interval", "wilson_interval"]

#: What a seat's payment in a hand came from, by its part in the hand (:meth:`BotStats.add_game`): its own win by
#: self-draw or on a discard, a win on its discard (dealing in, 点炮), another seat's self-draw, or anything else
#: (another seat dealt in, kong money, a drawn hand).
OUTCOMES = ("won_self_draw", "won_discard", "dealt_in", "paid_self_draw", "other")

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% confidence interval."""

    value: float
    low: float
    high: float

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (NaN, the estimate of an empty sample, written as null)."""
        finite = [None if math.isnan(x) else x for x in (self.value, self.low, self.high)]
        return json_text({"value": finite[0], "ci95": finite[1:]})

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "ci95": [self.low, self.high]}


def wilson_interval(successes: int, trials: int) -> Interval:
    """A rate with its Wilson score interval: unlike the normal approximation it stays inside [0, 1] and
    means something for rare events (a 1% pattern over 200 hands), which simulations are full of."""
    if trials <= 0:
        return Interval(math.nan, math.nan, math.nan)
    rate = successes / trials
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 or all successes the bound is exactly 0 or 1 (the formula leaves a rounding residue).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(rate, low, high)


def mean_interval(total: int, squares: int, count: int) -> tuple[Interval, float]:
    """The mean of ``count`` values from their sum and sum of squares, with a normal 95% interval (the
    simulations this serves run hundreds of hands at least), and the sample standard deviation."""
    if count <= 0:
        return Interval(math.nan, math.nan, math.nan), math.nan
    mean = total / count
    # Exact integer arithmetic for the sum of squared deviations: the float formula cancels catastrophically
    # when the mean is large against the spread.
    deviations = squares * count - total * total
    std = math.sqrt(deviations / (count * (count - 1))) if count > 1 else 0.0
    half = Z95 * std / math.sqrt(count)
    return Interval(mean, mean - half, mean + half), std


def _int(value: Any, what: str) -> int:
    # A rule system paying in fractions would make sums order-dependent (floats) and break the exact merge.
    if isinstance(value, bool) or not isinstance(value, int):
        raise HupaiError(f"simulation statistics need integer {what}, got {value!r}")
    return value


@dataclass
class SeatStats:
    """One seat's counts over the hands played."""

    wins: int = 0
    self_draws: int = 0          # wins with no discarder: from the wall, a replacement, dealt
    deal_ins: int = 0            # wins on this seat's discard (or its robbed kong)
    points: int = 0              # the sum of this seat's payments (kong money included)
    points_squared: int = 0
    #: payment -> hands: the distribution itself (small: payments take few distinct values), for plots.
    histogram: Counter[int] = field(default_factory=Counter)

    def merge(self, other: SeatStats) -> None:
        self.wins += other.wins
        self.self_draws += other.self_draws
        self.deal_ins += other.deal_ins
        self.points += other.points
        self.points_squared += other.points_squared
        self.histogram.update(other.histogram)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        return {"wins": self.wins, "self_draws": self.self_draws, "deal_ins": self.deal_ins,
                "points": self.points, "points_squared": self.points_squared,
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())}}

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any]) -> SeatStats:
        """:meth:`from_dict` of JSON text, or of the dict itself."""
        return cls.from_dict(dict_in(data, "seat stats"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatStats:
        return cls(data["wins"], data["self_draws"], data["deal_ins"], data["points"], data["points_squared"],
                   Counter({int(k): v for k, v in data["histogram"].items()}))


@dataclass
class BotStats:
    """One bot's counts over a tournament (every hand played under every seating of the bots).

    A bot may hold several seats (``greedy`` three times); its rates and points are per *seat-hand*. The hands
    of one deal (one wall under every seating) are not independent (their payments sum to zero, the same tiles
    come), so the interval of the points comes from the per-deal totals: ``points`` sums them and
    ``deal_points_squared`` sums their squares, over ``deals`` independent deals.
    """

    seat_hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    points: int = 0
    deal_points_squared: int = 0
    deals: int = 0
    #: this deal's payments so far (every seating not yet played): folded in by :meth:`end_deal`
    current: int = 0
    #: payment -> seat-hands: this bot's distribution, for plots (a tournament's seats each hold every bot)
    histogram: Counter[int] = field(default_factory=Counter)
    #: where its points came from: the sum of its payments by its part in the hand (:data:`OUTCOMES`)
    by_outcome: Counter[str] = field(default_factory=Counter)
    #: the sum of its payments in the hands it won, by each pattern the win scored (a win of two patterns
    #: counts under both): which hands pay it
    by_pattern: Counter[str] = field(default_factory=Counter)

    @staticmethod
    def add_game(bots: dict[str, BotStats], result: HandResult, seat_bots: list[str]) -> None:
        """Count one game of the current deal; ``seat_bots`` names the bot at each seat."""
        outcome: dict[int, str] = {}
        patterns: dict[int, tuple[str, ...]] = {}
        for win in result.wins:
            bots[seat_bots[win.seat]].wins += 1
            if win.discarder is None:
                bots[seat_bots[win.seat]].self_draws += 1
            else:
                bots[seat_bots[win.discarder]].deal_ins += 1
                outcome.setdefault(win.discarder, "dealt_in")
            outcome[win.seat] = "won_self_draw" if win.discarder is None else "won_discard"
            patterns[win.seat] = win.score.pattern_names
        self_drawn = any(win.discarder is None for win in result.wins)
        for seat, paid in enumerate(result.payments):
            stats = bots[seat_bots[seat]]
            paid = _int(paid, "payments")
            stats.seat_hands += 1
            stats.current += paid
            stats.histogram[paid] += 1
            stats.by_outcome[outcome.get(seat, "paid_self_draw" if self_drawn else "other")] += paid
            for name in patterns.get(seat, ()):
                stats.by_pattern[name] += paid

    @staticmethod
    def end_deal(bots: dict[str, BotStats]) -> None:
        """Close the deal every seating of which has been played."""
        for stats in bots.values():
            stats.points += stats.current
            stats.deal_points_squared += stats.current * stats.current
            stats.deals += 1
            stats.current = 0

    def merge(self, other: BotStats) -> None:
        if self.current or other.current:
            raise HupaiError("cannot merge a tournament's totals in the middle of a deal")
        self.seat_hands += other.seat_hands
        self.wins += other.wins
        self.self_draws += other.self_draws
        self.deal_ins += other.deal_ins
        self.points += other.points
        self.deal_points_squared += other.deal_points_squared
        self.deals += other.deals
        self.histogram.update(other.histogram)
        self.by_outcome.update(other.by_outcome)
        self.by_pattern.update(other.by_pattern)

    def points_interval(self) -> Interval:
        """Mean payment per seat-hand, with a 95% interval over the deals."""
        if self.deals <= 0:
            return Interval(math.nan, math.nan, math.nan)
        per_deal = mean_interval(self.points, self.deal_points_squared, self.deals)[0]
        scale = self.deals / self.seat_hands  # a deal is seat_hands / deals seat-hands of this bot
        return Interval(per_deal.value * scale, per_deal.low * scale, per_deal.high * scale)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        return {"seat_hands": self.seat_hands, "wins": self.wins, "self_draws": self.self_draws,
                "deal_ins": self.deal_ins, "points": self.points, "deal_points_squared": self.deal_points_squared,
                "deals": self.deals, "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
                "by_outcome": {name: self.by_outcome[name] for name in OUTCOMES},
                "by_pattern": dict(sorted(self.by_pattern.items()))}

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any]) -> BotStats:
        """:meth:`from_dict` of JSON text, or of the dict itself."""
        return cls.from_dict(dict_in(data, "bot stats"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BotStats:
        return cls(data["seat_hands"], data["wins"], data["self_draws"], data["deal_ins"], data["points"],
                   data["deal_points_squared"], data["deals"], 0,
                   Counter({int(k): v for k, v in data.get("histogram", {}).items()}),
                   Counter(data.get("by_outcome", {})), Counter(data.get("by_pattern", {})))


@dataclass
class Stats:
    """Totals over a set of hands at a table of ``num_players`` seats."""

    num_players: int
    hands: int = 0
    drawn: int = 0
    multi_wins: int = 0          # hands won by more than one seat (一炮多响)
    wins: int = 0                # all wins, a multi-win counted once per winner
    win_value: int = 0           # the sum of the wins' values (番, points: the rule system's unit)
    win_value_squared: int = 0
    length: int = 0              # the sum over hands of the actions other than pass
    length_squared: int = 0
    longest: int = 0
    seats: list[SeatStats] = field(default_factory=list)
    #: pattern name -> wins that scored it
    patterns: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [SeatStats() for _ in range(self.num_players)]

    def add(self, result: HandResult, length: int) -> None:
        """Count one finished hand; ``length`` is its number of decisions other than pass."""
        self.hands += 1
        self.length += length
        self.length_squared += length * length
        self.longest = max(self.longest, length)
        if result.drawn or not result.wins:
            self.drawn += 1
        if len(result.winners) > 1:
            self.multi_wins += 1
        seats = self.seats
        for win in result.wins:
            self.wins += 1
            value = _int(win.score.value, "win values")
            self.win_value += value
            self.win_value_squared += value * value
            seats[win.seat].wins += 1
            if win.discarder is None:
                seats[win.seat].self_draws += 1
            else:
                seats[win.discarder].deal_ins += 1
            self.patterns.update(set(win.score.pattern_names))
        for seat, paid in enumerate(result.payments):
            paid = _int(paid, "payments")
            stats = seats[seat]
            stats.points += paid
            stats.points_squared += paid * paid
            stats.histogram[paid] += 1

    def merge(self, other: Stats) -> Stats:
        """Add ``other``'s hands to these (in place; returns self)."""
        if other.num_players != self.num_players:
            raise HupaiError(f"cannot merge statistics of {other.num_players} seats into {self.num_players}")
        self.hands += other.hands
        self.drawn += other.drawn
        self.multi_wins += other.multi_wins
        self.wins += other.wins
        self.win_value += other.win_value
        self.win_value_squared += other.win_value_squared
        self.length += other.length
        self.length_squared += other.length_squared
        self.longest = max(self.longest, other.longest)
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            mine.merge(theirs)
        self.patterns.update(other.patterns)
        return self

    @classmethod
    def merged(cls, num_players: int, parts: Iterable[Stats]) -> Stats:
        total = cls(num_players)
        for part in parts:
            total.merge(part)
        return total

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The raw totals (what a later merge needs), patterns sorted by name."""
        return {"num_players": self.num_players, "hands": self.hands, "drawn": self.drawn,
                "multi_wins": self.multi_wins, "wins": self.wins, "win_value": self.win_value,
                "win_value_squared": self.win_value_squared, "length": self.length,
                "length_squared": self.length_squared, "longest": self.longest,
                "seats": [s.to_dict() for s in self.seats],
                "patterns": dict(sorted(self.patterns.items()))}

    @classmethod
    def from_json(cls, data: str | bytes | Mapping[str, Any]) -> Stats:
        """:meth:`from_dict` of JSON text, or of the dict itself."""
        return cls.from_dict(dict_in(data, "stats"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stats:
        return cls(data["num_players"], data["hands"], data["drawn"], data["multi_wins"], data["wins"],
                   data["win_value"], data["win_value_squared"], data["length"], data["length_squared"],
                   data["longest"], [SeatStats.from_dict(s) for s in data["seats"]], Counter(data["patterns"]))
