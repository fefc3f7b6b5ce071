"""Tournaments (issue 22 item 5): ``rotate=True`` / ``--rotate`` plays every hand under every distinct seating
of the bots and reports each bot's points per hand with 95% intervals over the deals; plus the simulate CLI
nits of issue 23 (the help's percent sign, ``--hands 0``, the payments plot)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.cli import main
from hupai.game import Game
from hupai.simulate.chunk import seatings
from hupai.simulate.stats import mean_interval

MIXED = ["greedy", "random", "random", "random"]


def bot_a(seed: int) -> RandomBot:
    return RandomBot(seed)


def bot_b(seed: int) -> GreedyBot:
    return GreedyBot(seed)


def _without_run(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.to_dict()
    data.pop("run")
    return data


def test_distinct_seatings_put_every_bot_in_every_seat_equally_often() -> None:
    assert len(seatings(MIXED)) == 4
    assert len(seatings(["greedy"] * 4)) == 1
    assert len(seatings(["greedy", "greedy", "random", "random"])) == 6
    assert len(seatings(["greedy", "random", bot_a, bot_b])) == 24
    for bots in (MIXED, ["greedy", "greedy", "random", "random"], ["greedy", "random", "random"]):
        table = seatings(bots)
        assert len(set(table)) == len(table) and all(sorted(s) == list(range(len(bots))) for s in table)
        names = [tuple(bots[i] for i in seating) for seating in table]
        assert len(set(names)) == len(names)  # distinct as bots, not only as instances
        for seat in range(len(bots)):
            at_seat = Counter(seating_names[seat] for seating_names in names)
            assert {name: at_seat[name] * len(bots) for name in at_seat} == {
                name: count * len(table) for name, count in Counter(bots).items()}


def test_every_deal_is_played_under_every_seating(tmp_path: Path) -> None:
    result = hupai.simulate("guangdong", hands=6, bots=MIXED, seed=4, rotate=True, log_dir=tmp_path, chunk_size=4)
    assert result.seatings == 4 and result.hands == 24 and result.hands_planned == 24
    logs = [json.loads(line) for f in sorted(tmp_path.iterdir()) for line in f.read_text("utf-8").splitlines()]
    assert len(logs) == 24
    for deal in range(6):
        group = logs[4 * deal: 4 * deal + 4]
        assert len({json.dumps(log["setup"], sort_keys=True) for log in group}) == 1  # one wall, one dealer
        assert group[0]["setup"]["dealer"] == deal % 4


def test_bot_points_and_intervals_come_from_the_deals(tmp_path: Path) -> None:
    """The per-bot figures recomputed from the hands' logs: the mean per seat-hand, and the interval from the
    per-deal totals (the seatings of one deal are not independent)."""
    result = hupai.simulate("guangdong", hands=10, bots=MIXED, seed=8, rotate=True, log_dir=tmp_path, workers=1)
    logs = [json.loads(line) for f in sorted(tmp_path.iterdir()) for line in f.read_text("utf-8").splitlines()]
    table = seatings(MIXED)
    per_deal: dict[str, list[int]] = {"greedy": [], "random": []}
    wins: Counter[str] = Counter()
    for deal in range(10):
        totals: Counter[str] = Counter()
        for k, seating in enumerate(table):
            game = Game.replay(logs[4 * deal + k])
            assert game.result is not None
            for seat, paid in enumerate(game.result.payments):
                totals[MIXED[seating[seat]]] += paid
            for win in game.result.wins:
                wins[MIXED[seating[win.seat]]] += 1
        for name in per_deal:
            per_deal[name].append(totals[name])
    for name, k in (("greedy", 1), ("random", 3)):
        sums = per_deal[name]
        expected = mean_interval(sum(sums), sum(s * s for s in sums), 10)[0]
        got = result.bot_points(name)
        assert got.value == pytest.approx(expected.value / (4 * k))
        assert got.low == pytest.approx(expected.low / (4 * k)) and got.high == pytest.approx(expected.high / (4 * k))
        assert result.bot_stats[name].seat_hands == 10 * 4 * k
        assert result.bot_win_rate(name).value == pytest.approx(wins[name] / (40 * k))
    assert result.bot_names == ("greedy", "random")


def test_a_tournament_does_not_depend_on_the_workers() -> None:
    runs = [hupai.simulate("kawuxing", hands=9, bots=["greedy", "random", "random"], seed=2, rotate=True,
                           workers=w, chunk_size=2) for w in (1, 2)]
    assert _without_run(runs[0]) == _without_run(runs[1])
    assert [b["bot"] for b in runs[0].to_dict()["bots"]] == ["greedy", "random"]


def test_greedy_beats_random_in_a_tournament() -> None:
    result = hupai.simulate("guangdong", hands=60, bots=MIXED, seed=1, rotate=True, workers=1)
    assert result.bot_points("greedy").low > 0 > result.bot_points("random").high


def test_tournament_errors() -> None:
    with pytest.raises(hupai.HupaiError, match="both named"):
        hupai.simulate("guangdong", hands=2, bots=["greedy", lambda s: RandomBot(s), lambda s: RandomBot(s),
                                                   "random"], rotate=True)
    with pytest.raises(hupai.HupaiError, match="rotate must be"):
        hupai.simulate("guangdong", hands=2, rotate="yes")  # type: ignore[arg-type]
    plain = hupai.simulate("guangdong", hands=2, bots="random")
    with pytest.raises(hupai.HupaiError, match="not a tournament"):
        plain.bot_points("random")
    assert "bots" not in plain.to_dict() and plain.bot_names == ()


def test_the_cli_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json = tmp_path / "t.json"
    assert main(["simulate", "--bots", "greedy,random,random,random", "--rotate", "--hands", "5", "--workers", "1",
                 "--json", str(out_json), "--csv", str(tmp_path / "t.csv")]) == 0
    text = capsys.readouterr().out
    assert "20 hands (5 deals x 4 seatings)" in text and "bots, every seating" in text
    assert any(line.lstrip().startswith("greedy ") for line in text.splitlines())
    data = json.loads(out_json.read_text())
    assert data["spec"]["rotate"] is True and data["seatings"] == 4
    assert [(b["bot"], b["seat_hands"]) for b in data["bots"]] == [("greedy", 20), ("random", 60)]
    rows = (tmp_path / "t.csv").read_text().splitlines()
    assert any(row.startswith("bot_points_mean,greedy,") for row in rows)


def test_help_shows_one_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "95%%" not in text and "95% intervals" in text


def test_no_hands_prints_a_clear_empty_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "0"]) == 0
    text = capsys.readouterr().out
    assert text.strip() == "guangdong: no hands played, seed 1: nothing to summarise" and "nan" not in text


def test_the_payments_plot_draws_one_outline_per_bot_and_a_tournament_its_bots(tmp_path: Path) -> None:
    """Issue 29 item 6: a tournament's payments are drawn per bot (a seat held every bot in turn), each bot once,
    as an outline over shared bins of whole payments; the legend names the bots, never a seat under one bot's
    name."""
    pytest.importorskip("matplotlib", reason="the plot extra is not installed (make install)")
    from hupai.simulate.plot import _bots, _payments, plot, require_matplotlib

    pyplot = require_matplotlib()
    result = hupai.simulate("guangdong", hands=12, bots=MIXED, seed=1, rotate=True, workers=1)
    figure, axes = pyplot.subplots(1, 2)
    _payments(axes[0], result)
    assert len(axes[0].patches) == len(result.bot_names) == 2
    labels = [text.get_text() for text in axes[0].get_legend().get_texts()]
    assert [label.split(":")[0] for label in labels] == ["greedy", "random"] and not any("seat" in x for x in labels)
    drawn = sum(sum(patch.get_path().vertices[:, 1]) for patch in axes[0].patches)
    assert drawn > 0 and axes[0].get_yscale() == "log"
    _bots(axes[1], result)
    assert [round(p.get_height(), 9) for p in axes[1].patches] == [
        round(result.bot_points(name).value, 9) for name in result.bot_names]
    pyplot.close(figure)
    plot(result, str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").read_bytes().startswith(b"\x89PNG")
    plain = hupai.simulate("guangdong", hands=12, bots=MIXED, seed=1, workers=1)
    figure, axes = pyplot.subplots(1, 1, squeeze=False)
    _payments(axes[0][0], plain)
    assert [t.get_text().split(":")[0] for t in axes[0][0].get_legend().get_texts()] == [
        "seat 0 (greedy)", "seat 1 (random)", "seat 2 (random)", "seat 3 (random)"]
    pyplot.close(figure)
