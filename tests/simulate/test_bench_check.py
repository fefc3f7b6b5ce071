"""``bench/check.py`` (``make bench-check``) on synthetic pytest-benchmark JSON: a machine uniformly slower passes,
one workload 30% slower relative to the reference fails, small noise passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bench_scripts import load_bench

CHECK = Path(__file__).resolve().parents[2] / "bench" / "check.py"


@pytest.fixture(scope="module")
def check() -> Any:
    return load_bench("check.py", "bench_check_tool")


BASE_SECONDS = {"reference": 0.005, "hands_guangdong_random": 0.010, "shanten_batch": 0.004}
ITEMS = {"reference": 10_000, "hands_guangdong_random": 12, "shanten_batch": 100_000}


def _run(slowdown: float = 1.0, workload_slowdown: dict[str, float] | None = None, paired: bool = True) -> dict:
    """pytest-benchmark JSON as bench_check.py writes it, on a machine ``slowdown`` times slower."""
    benchmarks = []
    for workload, seconds in BASE_SECONDS.items():
        best = seconds * slowdown * (workload_slowdown or {}).get(workload, 1.0)
        reference_best = BASE_SECONDS["reference"] * slowdown
        ratio = (ITEMS[workload] / best) / (ITEMS["reference"] / reference_best)
        info: dict[str, Any] = {"workload": workload, "items": ITEMS[workload], "unit": "hands/s"}
        if paired:
            info["ratio"] = ratio
        benchmarks.append({"name": f"test_tracked[{workload}]", "extra_info": info,
                           "stats": {"min": best, "median": best * 1.1}})
    return {"benchmarks": benchmarks}


def _check(check: Any, tmp_path: Path, run: dict, *extra: str) -> int:
    baseline = tmp_path / "baseline.json"
    if not baseline.exists():
        (tmp_path / "base_run.json").write_text(json.dumps(_run()))
        assert check.main(["--run", str(tmp_path / "base_run.json"), "--baseline", str(baseline),
                           "--write-baseline"]) == 0
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run))
    status: int = check.main(["--run", str(path), "--baseline", str(baseline), *extra])
    return status


@pytest.mark.parametrize("paired", [True, False])
def test_a_uniformly_2x_slower_machine_passes(check: Any, tmp_path: Path, paired: bool) -> None:
    assert _check(check, tmp_path, _run(slowdown=2.0, paired=paired)) == 0


@pytest.mark.parametrize("paired", [True, False])
def test_one_workload_30_percent_slower_fails(check: Any, tmp_path: Path, paired: bool,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(check, tmp_path, _run(slowdown=2.0, workload_slowdown={"shanten_batch": 1 / 0.7},
                                        paired=paired)) == 1
    out = capsys.readouterr().out
    assert "shanten_batch" in out.split("FAIL:")[1] and "hands_guangdong_random" not in out.split("FAIL:")[1]


def test_noise_within_the_tolerance_passes(check: Any, tmp_path: Path) -> None:
    run = _run(slowdown=1.5, workload_slowdown={"shanten_batch": 1.1, "hands_guangdong_random": 0.9})
    assert _check(check, tmp_path, run) == 0


def test_a_faster_workload_and_a_new_one_pass(check: Any, tmp_path: Path) -> None:
    run = _run(workload_slowdown={"shanten_batch": 0.5})
    run["benchmarks"].append({"name": "new", "extra_info": {"workload": "new_workload", "items": 5, "ratio": 1e-4},
                              "stats": {"min": 0.01}})
    assert _check(check, tmp_path, run) == 0


def test_the_committed_baseline_is_complete(check: Any) -> None:
    data = json.loads((CHECK.parent / "baseline.json").read_text())
    assert data["ratios"]["reference"] == 1.0 and 0 < data["tolerance"] < 0.3
    assert {"hands_guangdong_random", "shanten_batch", "simulate_guangdong_random"} <= set(data["ratios"])


def test_the_baseline_tracks_every_system_with_each_bot() -> None:
    """Issue 21 item 5: the hands of every rule system the engine plays, with RandomBot and GreedyBot (Wai Huzi
    greedy included), are in the baseline, so a change that loses their speed fails bench-check."""
    import hupai

    ratios = json.loads((CHECK.parent / "baseline.json").read_text())["ratios"]
    wanted = {f"hands_{name}_{bot}" for name in hupai.simulate.playable() for bot in ("random", "greedy")}
    assert "hands_waihuzi_greedy" in wanted and wanted <= set(ratios)


def test_only_checks_the_workloads_named(check: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    slow = _run(workload_slowdown={"shanten_batch": 2.0})
    assert _check(check, tmp_path, slow, "--only", "hands_guangdong") == 0
    assert "shanten_batch" not in capsys.readouterr().out
    assert _check(check, tmp_path, slow, "--only", "shanten") == 1


def test_rerecording_some_workloads_keeps_the_others(check: Any, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    _check(check, tmp_path, _run())  # writes the baseline from the base run
    before = json.loads(baseline.read_text())["ratios"]
    faster = tmp_path / "faster.json"
    faster.write_text(json.dumps(_run(workload_slowdown={"hands_guangdong_random": 0.5, "shanten_batch": 0.5})))
    assert check.main(["--run", str(faster), "--baseline", str(baseline), "--write-baseline",
                       "--only", "hands_guangdong_random", "--note", "after the speed-ups"]) == 0
    data = json.loads(baseline.read_text())
    assert data["ratios"]["hands_guangdong_random"] == pytest.approx(2 * before["hands_guangdong_random"], rel=1e-5)
    assert data["ratios"]["shanten_batch"] == before["shanten_batch"]  # not re-recorded: kept
    assert data["ratios"]["reference"] == 1.0 and "after the speed-ups" in data["measured_on"]


def test_a_run_without_the_reference_is_refused(check: Any, tmp_path: Path) -> None:
    run = _run()
    run["benchmarks"] = [b for b in run["benchmarks"] if b["extra_info"]["workload"] != "reference"]
    with pytest.raises(SystemExit, match="no 'reference'"):
        _check(check, tmp_path, run)


def test_rates_prints_each_benchmark_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rates = load_bench("rates.py", "bench_rates_tool")
    run = {"benchmarks": [
        {"name": "test_a", "extra_info": {"hands/s": 1234.0, "best hands/s": 1500.0}, "stats": {"median": 1, "ops": 1}},
        {"name": "test_b", "extra_info": {"items": 50, "unit": "hands/s"}, "stats": {"median": 0.5, "ops": 2}},
        {"name": "test_c", "extra_info": {}, "stats": {"median": 0.25, "ops": 4.0}},
    ]}
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(run))
    assert rates.main([str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["test_a", "1,234", "hands/s,", "1,500", "best", "hands/s"]
    assert lines[1].split() == ["test_b", "100", "hands/s"] and lines[2].split() == ["test_c", "4.0", "rounds/s"]
