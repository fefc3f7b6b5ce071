"""``hupai simulate --rules kawuxing`` plays three-seat matches."""

from __future__ import annotations

import io

from hupai.cli import simulate


def test_simulate_kawuxing_runs_three_seat_matches():
    for bot in ("random", "greedy"):
        out = io.StringIO()
        simulate("kawuxing", 30, 3, bot, out=out)
        text = out.getvalue()
        assert text.startswith("kawuxing: 30 hands with")
        scores = text.split("total scores ")[1].splitlines()[0]
        assert scores.count(",") == 2  # three seats
        assert sum(int(x) for x in scores.strip("[]").split(",")) == 0
