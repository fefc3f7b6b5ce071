"""What a simulation returns: per-seat rates and points with 95% intervals, the hands' shape, throughput.

The statistics are computed from exact totals (:class:`~hupai.simulate.stats.Stats`), so two runs of the same
seed give equal results whatever the workers or backend; only the ``run`` part of :meth:`to_dict` (backend,
workers, seconds, hands/s) differs.
"""

from __future__ import annotations

import bisect
import csv
import io
import json
import math
import warnings
from dataclasses import dataclass, field
from typing import Any

from ..errors import HupaiError
from ..jsonform import JSONText
from .stats import OUTCOMES, BotStats, Interval, Stats, mean_interval, wilson_interval

__all__ = ["SimulationResult"]


@dataclass
class SimulationResult:
    """The outcome of :func:`hupai.simulate`: read the per-seat methods, or :meth:`to_dict`, :meth:`to_json` /
    :meth:`to_csv`."""

    rules: str
    options: dict[str, Any]
    seed: int
    hands_requested: int
    chunk_size: int
    claim_window: str
    bots: tuple[str, ...]
    stats: Stats
    backend: str = "local"
    workers: int = 1
    seconds: float = 0.0         # wall clock, driver side
    worker_seconds: float = 0.0  # the chunks' own time, summed over workers
    worker_cpu_seconds: float = 0.0  # their CPU time: hands / this = one core's rate, however busy the machine
    interrupted: bool = False    # stopped early (Ctrl-C): the totals are those of the chunks that finished
    #: hand indices ``[start, stop)`` of the chunks counted, for an interrupted run's record: sorted, adjacent
    #: chunks joined (a finished run has one range, whatever its number of chunks)
    chunks_done: list[tuple[int, int]] = field(default_factory=list)
    #: a tournament: every hand played under each of ``seatings`` seatings of the bots
    rotate: bool = False
    seatings: int = 1
    #: a tournament's totals per bot, by name, in the order of the bot list
    bot_stats: dict[str, BotStats] = field(default_factory=dict)

    def record_chunk(self, start: int, stop: int) -> None:
        """Count hands ``[start, stop)`` as done in :attr:`chunks_done`, joined with the ranges it touches."""
        ranges = self.chunks_done
        at = bisect.bisect(ranges, (start, stop))
        if at < len(ranges) and ranges[at][0] == stop:
            stop = ranges.pop(at)[1]
        if at > 0 and ranges[at - 1][1] == start:
            at -= 1
            start = ranges.pop(at)[0]
        ranges.insert(at, (start, stop))

    @property
    def hands_planned(self) -> int:
        """The hands the run was asked for: every seating of each requested hand in a tournament."""
        return self.hands_requested * self.seatings

    # -- per seat ---------------------------------------------------------------------------------------
    @property
    def hands(self) -> int:
        """Hands played (fewer than :attr:`hands_planned` only if interrupted)."""
        return self.stats.hands

    # -- per bot (a tournament) -------------------------------------------------------------------------
    @property
    def bot_names(self) -> tuple[str, ...]:
        """The distinct bots of a tournament, in the order of the bot list (empty without ``rotate``)."""
        return tuple(self.bot_stats)

    def _bot(self, bot: str) -> BotStats:
        try:
            return self.bot_stats[bot]
        except KeyError:
            known = ", ".join(self.bot_stats) or "none: not a tournament (rotate=True)"
            raise HupaiError(f"no bot {bot!r} in this result (bots: {known})") from None

    def bot_points(self, bot: str) -> Interval:
        """``bot``'s mean payment per seat-hand, every seating counted, with its 95% interval (over the deals:
        the seatings of one wall are played by the same tiles and are not independent)."""
        return self._bot(bot).points_interval()

    def bot_win_rate(self, bot: str) -> Interval:
        """The share of ``bot``'s seat-hands it won."""
        stats = self._bot(bot)
        return wilson_interval(stats.wins, stats.seat_hands)

    def bot_self_draw_rate(self, bot: str) -> Interval:
        stats = self._bot(bot)
        return wilson_interval(stats.self_draws, stats.seat_hands)

    def bot_deal_in_rate(self, bot: str) -> Interval:
        """The share of ``bot``'s seat-hands it dealt in (点炮)."""
        stats = self._bot(bot)
        return wilson_interval(stats.deal_ins, stats.seat_hands)

    def bot_points_by_outcome(self, bot: str) -> dict[str, float]:
        """Where ``bot``'s points per seat-hand came from, by its part in each hand (:data:`.stats.OUTCOMES`:
        its own wins by self-draw and on a discard, dealing in, others' self-draws, the rest); they add up to
        :meth:`bot_points`. Set against another bot's, they show where one gains on the other."""
        stats = self._bot(bot)
        hands = stats.seat_hands or 1
        return {name: stats.by_outcome[name] / hands for name in OUTCOMES}

    def bot_points_by_pattern(self, bot: str) -> dict[str, float]:
        """``bot``'s points per seat-hand from the hands it won, by pattern (a win counts under each of its
        patterns), largest first."""
        stats = self._bot(bot)
        hands = stats.seat_hands or 1
        return {name: points / hands for name, points in sorted(stats.by_pattern.items(),
                                                                key=lambda item: (-item[1], item[0]))}

    @property
    def num_players(self) -> int:
        return self.stats.num_players

    def win_rate(self, seat: int) -> Interval:
        """The share of hands ``seat`` won (a multi-win counts for each winner)."""
        return wilson_interval(self.stats.seats[seat].wins, self.hands)

    def self_draw_rate(self, seat: int) -> Interval:
        """The share of hands ``seat`` won without a discarder (from the wall, a replacement tile, dealt)."""
        return wilson_interval(self.stats.seats[seat].self_draws, self.hands)

    def deal_in_rate(self, seat: int) -> Interval:
        """The share of hands won on ``seat``'s discard (or its robbed kong): 点炮. Zero in a system whose
        wins all come from the wall."""
        return wilson_interval(self.stats.seats[seat].deal_ins, self.hands)

    def points(self, seat: int) -> Interval:
        """``seat``'s mean payment per hand (kong money included) with its 95% interval."""
        s = self.stats.seats[seat]
        return mean_interval(s.points, s.points_squared, self.hands)[0]

    def points_std(self, seat: int) -> float:
        """The standard deviation of ``seat``'s payment per hand."""
        s = self.stats.seats[seat]
        return mean_interval(s.points, s.points_squared, self.hands)[1]

    def points_histogram(self, seat: int) -> dict[int, int]:
        """payment -> number of hands, for ``seat``."""
        return dict(sorted(self.stats.seats[seat].histogram.items()))

    def bot_points_histogram(self, bot: str) -> dict[int, int]:
        """payment -> number of seat-hands, for ``bot`` in a tournament (every seating counted)."""
        return dict(sorted(self._bot(bot).histogram.items()))

    def seat_label(self, seat: int) -> str:
        """Who sat at ``seat``: its bot, or in a tournament every bot in turn (the seat is no bot's)."""
        return "every bot" if self.rotate else self.bots[seat]

    # -- the table ------------------------------------------------------------------------------------
    @property
    def drawn_rate(self) -> Interval:
        """The share of hands that ended without a win (流局)."""
        return wilson_interval(self.stats.drawn, self.hands)

    @property
    def multi_win_rate(self) -> Interval:
        return wilson_interval(self.stats.multi_wins, self.hands)

    @property
    def hand_length(self) -> Interval:
        """Decisions per hand other than pass (draw, discard, claim, declaration...), mean and 95% interval."""
        return mean_interval(self.stats.length, self.stats.length_squared, self.hands)[0]

    @property
    def win_value(self) -> Interval:
        """The mean value of a win in the rule system's unit (番, points), with its 95% interval."""
        return mean_interval(self.stats.win_value, self.stats.win_value_squared, self.stats.wins)[0]

    def pattern_frequencies(self) -> dict[str, Interval]:
        """pattern name -> the share of wins that scored it, most frequent first (ties by name)."""
        wins = self.stats.wins
        ranked = sorted(self.stats.patterns.items(), key=lambda item: (-item[1], item[0]))
        return {name: wilson_interval(count, wins) for name, count in ranked}

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else math.nan

    # -- export ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain data: the run's spec, the statistics, the exact totals (``totals``, mergeable), and ``run``
        (backend, workers, timing: the only part that differs between runs of the same spec)."""
        seats = []
        for seat in range(self.num_players):
            s = self.stats.seats[seat]
            seats.append({
                # A tournament's seat held every bot in turn: no bot's name (each bot's figures are under "bots").
                "seat": seat, "bot": None if self.rotate else self.bots[seat], "wins": s.wins,
                "self_draws": s.self_draws, "deal_ins": s.deal_ins, "win_rate": self.win_rate(seat).to_dict(),
                "self_draw_rate": self.self_draw_rate(seat).to_dict(),
                "deal_in_rate": self.deal_in_rate(seat).to_dict(), "points": self.points(seat).to_dict(),
                "points_std": self.points_std(seat), "points_total": s.points,
            })
        data: dict[str, Any] = {
            "spec": {"rules": self.rules, "options": self.options, "seed": self.seed,
                     "hands": self.hands_requested, "chunk_size": self.chunk_size,
                     "claim_window": self.claim_window, "bots": list(self.bots), "rotate": self.rotate},
            "hands": self.hands, "interrupted": self.interrupted,
            "seats": seats,
            "drawn_rate": self.drawn_rate.to_dict(), "multi_win_rate": self.multi_win_rate.to_dict(),
            "wins": self.stats.wins, "win_value": self.win_value.to_dict(),
            "hand_length": self.hand_length.to_dict(), "longest_hand": self.stats.longest,
            "patterns": {name: {"wins": self.stats.patterns[name], "share_of_wins": rate.to_dict()}
                         for name, rate in self.pattern_frequencies().items()},
            "totals": self.stats.to_dict(),
            "run": {"backend": self.backend, "workers": self.workers, "seconds": self.seconds,
                    "worker_seconds": self.worker_seconds, "worker_cpu_seconds": self.worker_cpu_seconds,
                    "hands_per_second": self.hands_per_second},
        }
        if self.rotate:
            data["seatings"] = self.seatings
            data["bots"] = [{"bot": name, **stats.to_dict(), "win_rate": self.bot_win_rate(name).to_dict(),
                             "self_draw_rate": self.bot_self_draw_rate(name).to_dict(),
                             "deal_in_rate": self.bot_deal_in_rate(name).to_dict(),
                             "points": self.bot_points(name).to_dict(),
                             "points_by_outcome": self.bot_points_by_outcome(name)}
                            for name, stats in self.bot_stats.items()]
        return data

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text, indented (NaN, for the rates of an empty run, written as null)."""
        data = self.to_dict()
        return JSONText(json.dumps(_finite(data), ensure_ascii=False, indent=2), data)

    def to_json_text(self) -> str:
        """Deprecated: :meth:`to_json`."""
        warnings.warn("SimulationResult.to_json_text() is to_json() now", DeprecationWarning, stacklevel=2)
        return self.to_json()

    def csv_rows(self) -> list[list[Any]]:
        """Long-format rows ``metric, seat, value, ci95_low, ci95_high`` (seat empty for table-wide ones;
        patterns as ``pattern:<name>``, their value the share of wins): one file loads into any tool."""
        rows: list[list[Any]] = [["metric", "seat", "value", "ci95_low", "ci95_high"]]

        def add(metric: str, seat: int | str, interval: Interval) -> None:
            rows.append([metric, seat, interval.value, interval.low, interval.high])

        rows.append(["hands", "", self.hands, "", ""])
        for seat in range(self.num_players):
            add("win_rate", seat, self.win_rate(seat))
            add("self_draw_rate", seat, self.self_draw_rate(seat))
            add("deal_in_rate", seat, self.deal_in_rate(seat))
            add("points_mean", seat, self.points(seat))
            rows.append(["points_std", seat, self.points_std(seat), "", ""])
        add("drawn_rate", "", self.drawn_rate)
        add("multi_win_rate", "", self.multi_win_rate)
        add("hand_length", "", self.hand_length)
        add("win_value", "", self.win_value)
        for name, rate in self.pattern_frequencies().items():
            add(f"pattern:{name}", "", rate)
        for name in self.bot_stats:  # a tournament: the seat column names the bot
            add("bot_win_rate", name, self.bot_win_rate(name))
            add("bot_deal_in_rate", name, self.bot_deal_in_rate(name))
            add("bot_points_mean", name, self.bot_points(name))
        rows.append(["hands_per_second", "", self.hands_per_second, "", ""])
        return rows

    def to_csv(self) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(self.csv_rows())
        return out.getvalue()

    def summary(self, patterns: int = 10) -> str:
        """A plain-text table: one row per seat, then the table-wide figures and the top ``patterns``."""
        deals = f" ({self.hands_requested:,} deals x {self.seatings} seatings)" if self.rotate else ""
        head = (f"{self.rules}: {self.hands:,} hands"
                + (f" of {self.hands_planned:,} (interrupted)" if self.interrupted else deals)
                + f", seed {self.seed}, {self.workers} worker(s) on {self.backend}: {self.seconds:.1f} s, "
                  f"{self.hands_per_second:,.0f} hands/s")
        if not self.hands:
            return (f"{self.rules}: no hands played"
                    + (f" of {self.hands_planned:,} (interrupted)" if self.interrupted else "")
                    + f", seed {self.seed}: nothing to summarise")
        lines = [head, f"{'seat':>4}  {'bot':10} {'win %':>13} {'self-draw %':>13} {'deal-in %':>13} "
                       f"{'points/hand (95% CI)':>26} {'std':>8}"]
        for seat in range(self.num_players):
            points = self.points(seat)
            lines.append(f"{seat:>4}  {self.seat_label(seat)[:10]:10} {_pct(self.win_rate(seat)):>13} "
                         f"{_pct(self.self_draw_rate(seat)):>13} {_pct(self.deal_in_rate(seat)):>13} "
                         f"{points.value:>9.3f} [{points.low:7.3f}, {points.high:7.3f}] "
                         f"{self.points_std(seat):>8.2f}")
        length = self.hand_length
        lines.append(f"drawn {_pct(self.drawn_rate)}  multi-win {_pct(self.multi_win_rate)}  "
                     f"decisions/hand {length.value:.1f} (longest {self.stats.longest})  "
                     f"mean win value {self.win_value.value:.2f}")
        frequencies = list(self.pattern_frequencies().items())
        if frequencies:
            lines.append(f"patterns (share of {self.stats.wins:,} wins):")
            for name, rate in frequencies[:patterns]:
                lines.append(f"  {name:24s} {self.stats.patterns[name]:>8,}  {_pct(rate)}")
            if len(frequencies) > patterns:
                lines.append(f"  ... {len(frequencies) - patterns} more")
        if self.bot_stats:
            played = self.hands // self.seatings
            lines.append(f"bots, every seating (per seat-hand; intervals over {played:,} deals):")
            lines.append(f"  {'bot':16} {'seat-hands':>10} {'win %':>13} {'deal-in %':>13} "
                         f"{'points/hand (95% CI)':>26}")
            for name, stats in self.bot_stats.items():
                points = self.bot_points(name)
                lines.append(f"  {name[:16]:16} {stats.seat_hands:>10,} {_pct(self.bot_win_rate(name)):>13} "
                             f"{_pct(self.bot_deal_in_rate(name)):>13} {points.value:>9.3f} "
                             f"[{points.low:7.3f}, {points.high:7.3f}]")
            lines.append("points per seat-hand by outcome:")
            lines.append(f"  {'bot':16} " + " ".join(f"{_OUTCOME_LABELS[o]:>17}" for o in OUTCOMES))
            for name in self.bot_stats:
                parts = self.bot_points_by_outcome(name)
                lines.append(f"  {name[:16]:16} " + " ".join(f"{parts[o]:>17.3f}" for o in OUTCOMES))
        return "\n".join(lines)


#: Column heads of :data:`.stats.OUTCOMES` in the summary.
_OUTCOME_LABELS = {"won_self_draw": "won self-draw", "won_discard": "won discard", "dealt_in": "dealt in",
                   "paid_self_draw": "others' self-draw", "other": "other"}


def _pct(interval: Interval) -> str:
    if math.isnan(interval.value):
        return "-"
    half = max(interval.high - interval.value, interval.value - interval.low)
    return f"{100 * interval.value:5.1f} ±{100 * half:.1f}"


def _finite(data: Any) -> Any:
    """``data`` with NaN floats as None: JSON has no NaN, and strict parsers refuse Python's."""
    if isinstance(data, float):
        return None if math.isnan(data) else data
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_finite(value) for value in data]
    return data
