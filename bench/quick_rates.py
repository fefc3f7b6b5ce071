"""Standalone rates of the batch calls, best of 5 (``python bench/quick_rates.py``).

A quick check beside ``make bench``: on a shared machine the same call can run at different speeds minutes
apart, and this prints one line per case in a few seconds, so it can be repeated.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import hands  # noqa: E402
import hupai  # noqa: E402
from hupai import Forms  # noqa: E402

RIICHI_FORMS = Forms.STANDARD | Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS


def best_rate(function, counts, repeats: int = 5, **kwargs) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        function(counts, **kwargs)
        best = min(best, time.perf_counter() - started)
    return len(counts) / best


def main() -> None:
    sets = {"random": hands.random_hands(1_000_000), "near-complete": hands.near_complete_hands(1_000_000, 2)}
    hupai.shanten_batch(sets["random"][:10])  # build the tables outside the timing
    for name, counts in sets.items():
        for label, forms in (("standard", Forms.STANDARD), ("3 forms", RIICHI_FORMS)):
            rate = best_rate(hupai.shanten_batch, counts, forms=forms)
            print(f"shanten_batch {label:8s} {name:13s} {rate / 1e6:6.1f} M hands/s")
        print(f"is_win_batch           {name:13s} {best_rate(hupai.is_win_batch, counts) / 1e6:6.1f} M hands/s")
    for threads in (1, 2):
        rate = best_rate(hupai.shanten_batch, sets["random"], forms=RIICHI_FORMS, threads=threads)
        print(f"shanten_batch 3 forms  random, {threads} thread(s) {rate / 1e6:6.1f} M hands/s")


if __name__ == "__main__":
    main()
