"""A league: every pair of bots plays a rotated tournament, and one rating per bot is fitted to the results.

For each pair (A, B) the table is filled with both (four seats: A, B, A, B; three seats: A, B, B and A, A, B,
each played on the same deals) and every deal is played under every distinct seating (:func:`hupai.simulate`
with ``rotate``), so seat and dealer luck cancel. The pair's result is ``d = points(A) - points(B)``, the
difference of the two bots' mean payments per seat-hand, with its standard error over the deals.

The ratings ``r`` minimise ``sum((r_A - r_B - d_AB)^2 / se_AB^2)`` over the pairs with ``sum(r) = 0`` (a
least-squares rating on points: ``r_A - r_B`` predicts how many points per seat-hand A takes from B). Their 95%
intervals come from a parametric bootstrap: each pair's ``d`` drawn from its normal sampling distribution, the
ratings fitted again, 2,000 times, the 2.5th and 97.5th percentiles kept.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import rules as rules_module
from ..errors import HupaiError
from ..jsonform import json_text
from ..rules.base import Rules
from .chunk import resolve_bots
from .stats import Z95, Interval

__all__ = ["League", "Pairing", "league", "fit_ratings"]

#: Bootstrap draws of the ratings' intervals.
BOOTSTRAP = 2000


@dataclass(frozen=True)
class Pairing:
    """One pair's tournament: ``difference`` = A's mean points per seat-hand minus B's, with its standard error
    over ``deals`` deals."""

    a: str
    b: str
    difference: float
    error: float
    deals: int

    def interval(self) -> Interval:
        half = Z95 * self.error
        return Interval(self.difference, self.difference - half, self.difference + half)


@dataclass(frozen=True)
class League:
    """The pairings and the fitted ratings (points per seat-hand, summing to zero) with 95% intervals."""

    rules: str
    bots: tuple[str, ...]
    deals: int
    seed: int
    pairings: tuple[Pairing, ...]
    ratings: tuple[Interval, ...]

    def table(self) -> str:
        """The ratings as a text table, best first."""
        order = sorted(range(len(self.bots)), key=lambda i: -self.ratings[i].value)
        width = max(len(name) for name in self.bots)
        lines = [f"{self.rules}: league of {len(self.bots)} bots, {self.deals:,} rotated deals a pair "
                 f"(seed {self.seed})",
                 f"{'bot':<{width}}  {'rating':>8}  95% interval (points per seat-hand, sum 0)"]
        for i in order:
            r = self.ratings[i]
            lines.append(f"{self.bots[i]:<{width}}  {r.value:>+8.3f}  [{r.low:+.3f}, {r.high:+.3f}]")
        lines.append("pairs (A - B, points per seat-hand, 95% interval):")
        for p in self.pairings:
            pair = p.interval()
            lines.append(f"  {p.a} - {p.b}: {pair.value:+.3f} [{pair.low:+.3f}, {pair.high:+.3f}]")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "bots": list(self.bots), "deals": self.deals, "seed": self.seed,
                "ratings": {name: r.to_dict() for name, r in zip(self.bots, self.ratings, strict=True)},
                "pairings": [{"a": p.a, "b": p.b, "difference": p.difference, "error": p.error, "deals": p.deals}
                             for p in self.pairings]}

    def to_json(self) -> str:
        return json_text(self.to_dict())

    def plot(self, path: str) -> None:
        """The ratings with their intervals as a chart (``hupai[plot]``: matplotlib)."""
        from .plot import require_matplotlib

        plt = require_matplotlib()
        order = sorted(range(len(self.bots)), key=lambda i: self.ratings[i].value)
        figure, axes = plt.subplots(figsize=(6, 1 + 0.5 * len(self.bots)))
        values = [self.ratings[i].value for i in order]
        low = [self.ratings[i].value - self.ratings[i].low for i in order]
        high = [self.ratings[i].high - self.ratings[i].value for i in order]
        axes.errorbar(values, range(len(order)), xerr=[low, high], fmt="o", capsize=4)
        axes.set_yticks(range(len(order)), [self.bots[i] for i in order])
        axes.axvline(0.0, color="grey", linewidth=0.8)
        axes.set_xlabel("rating: points per seat-hand (95% interval)")
        axes.set_title(f"{self.rules}: league, {self.deals:,} rotated deals a pair")
        figure.tight_layout()
        figure.savefig(path)
        plt.close(figure)


def fit_ratings(count: int, pairs: Sequence[tuple[int, int, float, float]]) -> np.ndarray:
    """Least-squares ratings of ``count`` bots from ``(a, b, difference, error)`` pairs, summing to zero."""
    rows = []
    targets = []
    for a, b, difference, error in pairs:
        weight = 1.0 / max(error, 1e-9)
        row = np.zeros(count)
        row[a], row[b] = weight, -weight
        rows.append(row)
        targets.append(difference * weight)
    rows.append(np.ones(count) * 1e3)  # sum(r) = 0, weighted to hold
    targets.append(0.0)
    solution: np.ndarray = np.linalg.lstsq(np.array(rows), np.array(targets), rcond=None)[0]
    return solution


def lineups(a: int, b: int, seats: int) -> list[list[int]]:
    """The tables a pair plays: both bots equally often over the lineups."""
    if seats % 2 == 0:
        return [[a, b] * (seats // 2)]
    return [[a] + [b] * (seats - 1) if seats == 3 else [a, b] * (seats // 2) + [a],
            [a] * (seats - 1) + [b] if seats == 3 else [b, a] * (seats // 2) + [b]]


def league(rules: str | Rules, bots: Sequence[str], deals: int = 100, seed: int = 1, workers: int | None = 1,
           options: Mapping[str, Any] | None = None, progress: Callable[[str], None] | None = None) -> League:
    """Play the league of ``bots`` (names, at least two) in ``rules``: ``deals`` rotated deals per pair and
    lineup, the same deals for every pair (the same ``seed``)."""
    from . import simulate

    rule_system = rules_module.get(rules, options) if isinstance(rules, str) else rules
    names = list(dict.fromkeys(bots))
    if len(names) < 2 or len(names) != len(bots):
        raise HupaiError(f"a league needs two or more different bots, got {list(bots)}")
    seats = rule_system.num_players
    resolve_bots(names[:1] * seats, seats)
    for name in names:
        resolve_bots([name] * seats, seats)  # every name checked before any hand is played
    pairings = []
    fitted = []
    for a, b in itertools.combinations(range(len(names)), 2):
        differences = []
        errors = []
        for lineup in lineups(a, b, seats):
            if progress is not None:
                progress(f"{names[a]} vs {names[b]} ({','.join(names[i] for i in lineup)})")
            result = simulate(rule_system, hands=deals, bots=[names[i] for i in lineup], seed=seed, workers=workers,
                              rotate=True)
            mine, theirs = result.bot_stats[names[a]], result.bot_stats[names[b]]
            difference, error = _difference(mine, theirs)
            differences.append(difference)
            errors.append(error)
        difference = sum(differences) / len(differences)
        error = math.sqrt(sum(e * e for e in errors)) / len(errors)
        pairings.append(Pairing(names[a], names[b], difference, error, deals))
        fitted.append((a, b, difference, error))
    ratings = fit_ratings(len(names), fitted)
    rng = np.random.default_rng(seed)
    draws = np.empty((BOOTSTRAP, len(names)))
    for i in range(BOOTSTRAP):
        drawn = [(a, b, rng.normal(d, e), e) for a, b, d, e in fitted]
        draws[i] = fit_ratings(len(names), drawn)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    return League(rule_system.name, tuple(names), deals, seed, tuple(pairings),
                  tuple(Interval(float(v), float(lo), float(hi)) for v, lo, hi in zip(ratings, low, high, strict=True)))


def _difference(mine: Any, theirs: Any) -> tuple[float, float]:
    """A's mean points per seat-hand minus B's and its standard error over the deals. The payments of a deal
    sum to zero, so B's total is minus A's: the difference is A's per-deal total times (1/a + 1/b), a and b
    their seat-hands per deal."""
    deals = mine.deals
    if deals < 2:
        raise HupaiError("a league needs two or more deals a pair (for an interval)")
    per_a = mine.seat_hands / deals
    per_b = theirs.seat_hands / deals
    scale = 1.0 / per_a + 1.0 / per_b
    mean = mine.points / deals
    variance = (mine.deal_points_squared - deals * mean * mean) / (deals - 1)
    return mean * scale, math.sqrt(max(variance, 0.0) / deals) * scale
