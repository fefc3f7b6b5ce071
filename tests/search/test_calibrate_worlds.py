"""bench/calibrate_worlds.py (the world weights' calibration), bench/search_audit.py --compare and
bench/search_time.py: deterministic, and the weights are the smoothed frequency ratios the module says."""

from __future__ import annotations

import runpy
import sys

import pytest
from hupai.belief import LEVELS, MELD_BUCKETS, TURN_BUCKETS

from tests.bench_scripts import load_bench


def test_counts_are_deterministic_and_weights_are_smoothed_ratios() -> None:
    calibrate = load_bench("calibrate_worlds.py", "calibrate_worlds")
    first = calibrate.count("kawuxing", 2, 9)
    assert first == calibrate.count("kawuxing", 2, 9)
    real, uniform, decisions = first
    assert decisions > 0 and sum(map(sum, real[0])) == sum(map(sum, uniform[0]))  # one of each per seat seen
    real = [[[0] * LEVELS for _ in range(MELD_BUCKETS)] for _ in range(TURN_BUCKETS)]
    uniform = [[[0] * LEVELS for _ in range(MELD_BUCKETS)] for _ in range(TURN_BUCKETS)]
    real[1][0] = [8, 0, 0, 0, 0]
    uniform[1][0] = [0, 0, 0, 0, 8]
    weights = calibrate.weights(real, uniform)
    alpha = calibrate.ALPHA
    total = 8 + alpha * LEVELS
    assert weights[1][0][0] == round(((8 + alpha) / total) / (alpha / total), 4)
    assert weights[1][0][4] == round((alpha / total) / ((8 + alpha) / total), 4)
    assert weights[0][0] == [1.0] * LEVELS  # no evidence: no weight


def test_the_written_table_is_a_module_of_the_same_shape(tmp_path: pytest.TempPathFactory,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "weights.py"  # type: ignore[operator]
    monkeypatch.setattr(sys, "argv", ["calibrate_worlds.py", "--rules", "kawuxing", "--games", "2", "--write",
                                      str(out)])
    calibrate = load_bench("calibrate_worlds.py", "calibrate_worlds_main")
    calibrate.main()
    tables = runpy.run_path(str(out))["TABLES"]
    weights = tables["kawuxing"]["weights"]
    assert len(weights) == TURN_BUCKETS and all(len(row) == MELD_BUCKETS for row in weights)
    assert all(len(cell) == LEVELS for row in weights for cell in row)


def test_the_audit_compares_uniform_and_weighted_worlds(capsys: pytest.CaptureFixture[str]) -> None:
    audit = load_bench("search_audit.py", "search_audit")
    audit.compare("kawuxing", 2, 6, 2, None, 1000, 8, 1)
    out = capsys.readouterr().out
    assert "uniform against weighted worlds" in out and out.count("[") >= len(audit.MARGINS)


def test_the_audit_reports_how_dangerous_the_departures_tiles_are(capsys: pytest.CaptureFixture[str]) -> None:
    """``--danger``: the turn's discard departures' tiles, how often worlds and the true deal let another seat win
    on them at once, and their worth by stage of the hand."""
    audit = load_bench("search_audit.py", "search_audit_danger")
    audit.compare_specs("guangdong", 1, ["search:6:worlds=weighted"], 1, 1, 0.0, danger_worlds=2)
    out = capsys.readouterr().out
    assert "departures: worlds search" in out and "worth each" in out.split("departures: worlds search")[1]
    game = audit.Game("guangdong", seed=3, claim_window="eligible")
    seat = game.seats_to_act[0]
    discard = next(a for a in game.legal_actions(seat) if a.kind == "discard")
    assert audit.wins_on(game, discard) is False  # nobody is ready at the deal
    assert game.seats_to_act == (seat,) and not game.actions  # played on a copy


def test_search_time_times_searched_decisions() -> None:
    timing = load_bench("search_time.py", "search_time")
    times = timing.spent("kawuxing", 1, "weighted", 8, 4)
    assert times and times == sorted(times) and all(t > 0 for t in times)


def test_the_check_compares_real_uniform_and_weighted_levels(capsys: pytest.CaptureFixture[str]) -> None:
    calibrate = load_bench("calibrate_worlds.py", "calibrate_worlds_check")
    calibrate.check("guangdong", 1, 50000, 4, from_turn=2)
    out = capsys.readouterr().out
    assert all(f"{name}: levels" in out for name in ("real", "uniform", "weighted", "matched", "waiting"))
    assert "copies of its own discarded kinds" in out
    assert out.count("win at once on EVBot's discard") == 5 and "waiting on a kind it discarded" in out


def test_wait_weights_are_the_smoothed_ratio_of_real_to_matched_ready_hands(
        tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    from hupai.belief import WAIT_CLASSES

    calibrate = load_bench("calibrate_worlds.py", "calibrate_worlds_waits")
    first = calibrate.wait_counts("guangdong", 3, 9)
    assert first == calibrate.wait_counts("guangdong", 3, 9)
    real, matched, decisions = first
    assert decisions > 0 and len(real) == len(matched) == WAIT_CLASSES and sum(real) > 0 and sum(matched) > 0
    out = tmp_path / "waits.py"  # type: ignore[operator]
    monkeypatch.setattr(sys, "argv", ["calibrate_worlds.py", "--waits", "--rules", "guangdong", "--games", "3",
                                      "--seed", "9", "--write", str(out)])
    load_bench("calibrate_worlds.py", "calibrate_worlds_waits_main").main()
    table = runpy.run_path(str(out))["WAITS"]["guangdong"]
    assert table["real"] == real and table["matched"] == matched
    alpha = calibrate.ALPHA
    r_total, m_total = sum(real) + alpha * WAIT_CLASSES, sum(matched) + alpha * WAIT_CLASSES
    assert table["weights"] == [round(min(calibrate.HIGH, max(calibrate.LOW, ((r + alpha) / r_total)
                                                              / ((m + alpha) / m_total))), 4)
                                for r, m in zip(real, matched, strict=True)]


def test_real_level_shares_are_the_real_counts_smoothed_toward_the_bucket_before(
        tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    calibrate = load_bench("calibrate_worlds.py", "calibrate_worlds_levels")
    real, decisions = calibrate.real_levels("kawuxing", 2, 9)
    assert decisions > 0 and real == calibrate.count("kawuxing", 2, 9)[0]  # the same hands as the weights'
    counts = [[[0] * LEVELS for _ in range(MELD_BUCKETS)] for _ in range(TURN_BUCKETS)]
    counts[0][0] = [0, 0, 0, 0, 10]
    counts[1][0] = [10, 0, 0, 0, 0]
    shares = calibrate.shares(counts)
    pseudo = calibrate.ALPHA * LEVELS
    first = [(pseudo / LEVELS) / (10 + pseudo)] * (LEVELS - 1) + [(10 + pseudo / LEVELS) / (10 + pseudo)]
    assert shares[0][0] == [round(x, 4) for x in first]
    assert shares[1][0][0] == round((10 + pseudo * shares[0][0][0]) / (10 + pseudo), 4)
    assert shares[2][0] == shares[1][0]  # no hands: the bucket before's shares
    out = tmp_path / "levels.py"  # type: ignore[operator]
    monkeypatch.setattr(sys, "argv", ["calibrate_worlds.py", "--levels", "--rules", "kawuxing", "--games", "2",
                                      "--seed", "9", "--write", str(out)])
    load_bench("calibrate_worlds.py", "calibrate_worlds_levels_main").main()
    table = runpy.run_path(str(out))["SHARES"]["kawuxing"]
    written = table["shares"]
    assert len(written) == TURN_BUCKETS and all(len(cell) == LEVELS for row in written for cell in row)
    assert table["discarded"] == calibrate.discarded("kawuxing", 2, 9) and 0 < table["discarded"] < 1
