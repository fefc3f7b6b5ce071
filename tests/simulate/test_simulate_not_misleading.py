"""Issue 29 item 6: a tournament's output is per bot, never per seat under one bot's name (the printed table, the
JSON's ``seats`` and ``bots``, the plot), and the plot's patterns are readable: Chinese and English names, the
top ones only, on an axis that shows the spread (one pattern nearly every win scores does not flatten the rest).
"""

from __future__ import annotations

import json
from pathlib import Path

import hupai
import pytest

BOTS = ["ev", "greedy", "random"]


@pytest.fixture(scope="module")
def tournament() -> hupai.simulate.SimulationResult:
    return hupai.simulate("kawuxing", hands=20, bots=BOTS, seed=3, rotate=True, workers=1)


def test_the_summary_names_no_bot_for_a_seat_of_a_tournament(tournament: hupai.simulate.SimulationResult) -> None:
    lines = tournament.summary().splitlines()
    seat_rows = [line for line in lines if line[:4].strip().isdigit()]
    assert len(seat_rows) == 3 and all(row.split()[1:3] == ["every", "bot"] for row in seat_rows)
    first = lines.index(next(x for x in lines if x.startswith("bots,"))) + 2
    last = lines.index("points per seat-hand by outcome:")
    assert [line.split()[0] for line in lines[first:last]] == BOTS
    assert [line.split()[0] for line in lines[last + 2:]] == BOTS


def test_a_bots_points_by_outcome_add_up_to_its_points(tournament: hupai.simulate.SimulationResult) -> None:
    """Where a bot's points come from (its wins by self-draw and on a discard, dealing in, others' self-draws,
    the rest) adds up to its points per seat-hand; a bot that never dealt in has nothing there, and its points
    by pattern come from its wins alone."""
    for name, stats in tournament.bot_stats.items():
        parts = tournament.bot_points_by_outcome(name)
        assert list(parts) == list(hupai.simulate.stats.OUTCOMES)
        assert sum(parts.values()) == pytest.approx(tournament.bot_points(name).value)
        assert stats.deal_ins > 0 or parts["dealt_in"] == 0
        assert stats.wins > 0 or parts["won_self_draw"] == parts["won_discard"] == 0
        assert (stats.wins > 0) == bool(tournament.bot_points_by_pattern(name))


def test_the_json_seats_name_no_bot_and_the_bots_section_has_each(
        tournament: hupai.simulate.SimulationResult) -> None:
    data = json.loads(tournament.to_json())
    assert [seat["bot"] for seat in data["seats"]] == [None, None, None]
    assert [bot["bot"] for bot in data["bots"]] == BOTS
    for bot in data["bots"]:
        assert sum(bot["histogram"].values()) == bot["seat_hands"] == 20 * 6
    plain = hupai.simulate("kawuxing", hands=4, bots=BOTS, seed=3, workers=1).to_dict()
    assert [seat["bot"] for seat in plain["seats"]] == BOTS and "bots" not in plain


def test_the_tournament_totals_still_merge_and_read_back(tournament: hupai.simulate.SimulationResult) -> None:
    from hupai.simulate.stats import BotStats

    for stats in tournament.bot_stats.values():
        assert BotStats.from_dict(stats.to_dict()) == stats
        old = stats.to_dict()
        del old["histogram"]  # totals written before the per-bot histogram still read
        assert BotStats.from_dict(old).histogram == {}


def test_the_pattern_panel_names_patterns_in_chinese_and_english_on_a_log_axis(
        tournament: hupai.simulate.SimulationResult, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra is not installed (pip install 'hupai[plot]')")
    from hupai.simulate.plot import _patterns, plot, require_matplotlib

    pyplot = require_matplotlib()
    result = hupai.simulate("kawuxing", hands=120, bots="greedy", seed=3, workers=1)
    assert list(result.pattern_frequencies().values())[0].value > 0.95  # 亮倒: nearly every win
    figure, axes = pyplot.subplots()
    _patterns(axes, result, 4)
    labels = [label.get_text() for label in axes.get_yticklabels()]
    assert len(labels) == min(4, len(result.pattern_frequencies()))
    assert labels[-1] == "亮倒 Declared Ready" and "liang_dao" not in labels
    assert axes.get_xscale() == "log"
    low, high = axes.get_xlim()
    smallest = min(patch.get_width() for patch in axes.patches)
    assert low < smallest / 1.5 and high >= 1  # the rarest shown bar is visible beside the 99% one
    pyplot.close(figure)
    plot(tournament, str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").read_bytes().startswith(b"\x89PNG")


def test_game_num_players() -> None:
    assert [hupai.Game(system, seed=1).num_players for system in ("guangdong", "yunxiao", "kawuxing", "waihuzi")] \
        == [4, 4, 3, 3]
