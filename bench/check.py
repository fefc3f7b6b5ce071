"""Benchmarks CI can act on: run the tracked workloads and compare them with a committed baseline.

    python bench/check.py                    # run bench/bench_check.py, compare with bench/baseline.json
    python bench/check.py --quick            # fewer rounds: under a minute (CI)
    python bench/check.py --run RUN.json     # compare an existing pytest-benchmark JSON, run nothing
    python bench/check.py --write-baseline   # run, then record the ratios as the new baseline
    python bench/check.py --only hands_waihuzi_greedy --only hands_yunxiao   # those workloads (and the reference)
    python bench/check.py --write-baseline --only hands_waihuzi_greedy   # re-record them, keep the others

The rule, robust to a noisy or different machine: ``reference`` is plain Python work (no hupai), run just
before every round of every workload; a workload's ratio is the median over its rounds of its rate over the
reference's rate in the same moment, timed in CPU time (time the process waits for a shared core is not
counted). Only these ratios are compared with the baseline's: a machine twice as slow, or twice as busy,
halves every rate and changes no ratio. A workload whose ratio falls more than ``tolerance`` (default 20%)
below the baseline's is a regression; before failing, the failing workloads are measured once more and each
keeps its better run, so one noisy moment does not fail CI. Exit status: 0 pass, 1
regression, 2 usage error (a missing file, no reference in the run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"
REFERENCE = "reference"
TOLERANCE = 0.20


@dataclass(frozen=True)
class Row:
    workload: str
    rate: float | None         # items/s in this run
    ratio: float | None        # rate / the reference's rate in this run
    baseline: float | None     # the baseline's ratio
    unit: str = ""

    @property
    def relative(self) -> float | None:
        """This run's ratio over the baseline's: 1.0 = unchanged, 0.7 = 30% slower relative to the reference."""
        if self.ratio is None or self.baseline is None:
            return None
        return self.ratio / self.baseline

    def regressed(self, tolerance: float) -> bool:
        relative = self.relative
        return relative is not None and relative < 1.0 - tolerance


def rates_from_run(run: dict[str, Any]) -> dict[str, tuple[float, str, float | None]]:
    """workload -> (items per second of its best round, unit, the paired ratio to the reference if the run
    recorded one), from pytest-benchmark JSON."""
    rates = {}
    for bench in run.get("benchmarks", []):
        info = bench.get("extra_info", {})
        workload, items = info.get("workload"), info.get("items")
        best = bench.get("stats", {}).get("min")
        if workload and items and best:
            rates[workload] = (items / best, info.get("unit", "items/s"), info.get("ratio"))
    return rates


def ratios(rates: dict[str, tuple[float, str, float | None]]) -> dict[str, float]:
    """Each workload's ratio to the reference: the run's paired ratio where recorded (bench_check.py's rounds
    each time the reference beside the workload), else best rate over the reference's best rate."""
    if REFERENCE not in rates:
        raise SystemExit(f"bench-check: the run has no {REFERENCE!r} workload to compare against")
    reference = rates[REFERENCE][0]
    return {workload: paired if paired is not None else rate / reference
            for workload, (rate, _, paired) in rates.items()}


def median_run(runs: list[dict[str, tuple[float, str, float | None]]]) -> dict[str, tuple[float, str, float | None]]:
    """One run made of each workload's median ratio (and median rate) over ``runs``."""
    merged = {}
    for workload in runs[0]:
        found = [run for run in runs if workload in run]
        by_ratio = sorted(found, key=lambda run: ratios(run)[workload])
        middle = by_ratio[len(by_ratio) // 2]
        rate, unit, _ = middle[workload]
        merged[workload] = (rate, unit, ratios(middle)[workload])
    return merged


def compare(runs: list[dict[str, tuple[float, str, float | None]]], baseline: dict[str, float]) -> list[Row]:
    """One row per workload in the runs or the baseline (a workload missing from either has no verdict).

    With several runs (a re-measure), each workload keeps its best ratio, each ratio taken within its own
    run: the reference of one run never divides another run's rates.
    """
    measured: dict[str, float] = {}
    rates: dict[str, tuple[float, str, float | None]] = {}
    for run in runs:
        for workload, ratio in ratios(run).items():
            if ratio > measured.get(workload, 0.0):
                measured[workload] = ratio
                rates[workload] = run[workload]
    rows = []
    for workload in sorted(set(measured) | set(baseline), key=lambda w: (w != REFERENCE, w)):
        rate, unit, _ = rates.get(workload, (None, "", None))
        rows.append(Row(workload, rate, measured.get(workload), baseline.get(workload), unit))
    return rows


def report(rows: list[Row], tolerance: float) -> str:
    lines = [f"{'workload':34} {'rate':>16} {'ratio':>10} {'baseline':>10} {'change':>8}"]
    for row in rows:
        rate = f"{row.rate:,.0f} {row.unit}" if row.rate is not None else "-"
        ratio = f"{row.ratio:.4g}" if row.ratio is not None else "-"
        base = f"{row.baseline:.4g}" if row.baseline is not None else "new"
        relative = row.relative
        change = f"{100 * (relative - 1):+.0f}%" if relative is not None else ""
        verdict = "  REGRESSION" if row.regressed(tolerance) else ""
        lines.append(f"{row.workload:34} {rate:>16} {ratio:>10} {base:>10} {change:>8}{verdict}")
    return "\n".join(lines)


def run_benchmarks(quick: bool, only: list[str] | None = None) -> dict[str, Any]:
    """Run bench/bench_check.py (``only`` those workloads) and return its pytest-benchmark JSON."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "run.json"
        command = [sys.executable, "-m", "pytest", str(HERE / "bench_check.py"), "--benchmark-only", "-q",
                   "-p", "no:cacheprovider", "-p", "no:xdist", f"--benchmark-json={out}",
                   # CPU time, not wall time: time this process waits while other work holds the cores
                   # (a shared CI machine) is not counted
                   "--benchmark-timer=time.process_time"]
        if only:
            command += ["-k", " or ".join(only)]  # workload names: no one is part of another's
        env = {**os.environ, "HUPAI_BENCH_QUICK": "1" if quick else "0"}
        done = subprocess.run(command, env=env, cwd=HERE.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
        if done.returncode != 0 or not out.exists():
            sys.stderr.write(done.stdout)
            raise SystemExit(f"bench-check: the benchmarks failed (exit {done.returncode})")
        data: dict[str, Any] = json.loads(out.read_text())
        return data


def _selected(table: dict[str, Any], only: list[str] | None) -> dict[str, Any]:
    """The entries of ``table`` whose workload name contains one of ``only`` (all without ``only``)."""
    return table if not only else {w: v for w, v in table.items() if any(word in w for word in only)}


def load_baseline(path: Path) -> tuple[dict[str, float], float]:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise SystemExit(f"bench-check: no baseline {path} (make one with --write-baseline)") from None
    return {k: float(v) for k, v in data["ratios"].items()}, float(data.get("tolerance", TOLERANCE))


def write_baseline(path: Path, rates: dict[str, tuple[float, str, float | None]], tolerance: float, note: str,
                   keep: bool = False) -> None:
    """Record ``rates``' ratios as the baseline; ``keep``: only replace those workloads in the existing one (a
    ratio is to the reference of its own run, so workloads recorded in different runs compare alike)."""
    old: dict[str, Any] = json.loads(path.read_text()) if keep and path.exists() else {}
    recorded = {w: float(f"{r:.6g}") for w, r in ratios(rates).items()}
    measured = {w: round(rate) for w, (rate, _, _) in rates.items()}
    data = {
        "about": "each workload's rate over the reference workload's, paired round by round (median), in one "
                 "run of bench/bench_check.py; compared by bench/check.py; rates are items/s of the best round",
        "reference": REFERENCE, "tolerance": tolerance,
        "measured_on": note if not old else f"{old.get('measured_on', '')}; {', '.join(sorted(rates))}: {note}",
        "ratios": dict(sorted({**old.get("ratios", {}), **recorded}.items())),
        "rates": dict(sorted({**old.get("rates", {}), **measured}.items())),
    }
    path.write_text(json.dumps(data, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (under a minute)")
    parser.add_argument("--run", type=Path, help="an existing pytest-benchmark JSON to check (runs nothing)")
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument("--tolerance", type=float, default=None, help="the largest allowed drop (default: the "
                                                                      "baseline's, else 0.20)")
    parser.add_argument("--write-baseline", action="store_true", help="record this run as the baseline")
    parser.add_argument("--note", default="", help="with --write-baseline: where it was measured")
    parser.add_argument("--repeat", type=int, default=1, help="with --write-baseline: runs whose median ratio "
                                                              "each workload records (a steadier baseline)")
    parser.add_argument("--only", action="append", default=None, metavar="WORKLOAD",
                        help="only the workloads whose name contains this (repeatable; the reference always runs); "
                             "with --write-baseline the others keep their recorded ratios")
    args = parser.parse_args(argv)
    fresh = args.run is None
    only = [REFERENCE, *args.only] if args.only else None
    run = json.loads(args.run.read_text()) if args.run else run_benchmarks(args.quick, only)
    rates = _selected(rates_from_run(run), only)
    if args.write_baseline:
        runs = [rates] + [_selected(rates_from_run(run_benchmarks(args.quick, only)), only)
                          for _ in range(max(0, args.repeat - 1))]
        write_baseline(args.baseline, median_run(runs), args.tolerance or TOLERANCE, args.note, keep=bool(only))
        print(f"bench-check: wrote {args.baseline} ({len(rates)} workloads, {len(runs)} run(s))")
        return 0
    baseline, tolerance = load_baseline(args.baseline)
    if only:
        baseline = _selected(baseline, only)
    tolerance = args.tolerance if args.tolerance is not None else tolerance
    rows = compare([rates], baseline)
    failing = [row.workload for row in rows if row.regressed(tolerance)]
    if failing and fresh:
        print(f"bench-check: {', '.join(failing)} below the baseline; measuring them again", flush=True)
        rows = compare([rates, rates_from_run(run_benchmarks(args.quick, [REFERENCE, *failing]))], baseline)
        failing = [row.workload for row in rows if row.regressed(tolerance)]
    print(report(rows, tolerance))
    if failing:
        print(f"bench-check: FAIL: {', '.join(failing)} more than {tolerance:.0%} slower than the baseline, "
              f"relative to the reference workload")
        return 1
    print(f"bench-check: pass ({sum(r.relative is not None for r in rows)} workloads within {tolerance:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
