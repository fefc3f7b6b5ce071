"""Wai Huzi best-split throughput (hupai.zipai): batch and single calls, on random and near-complete hands.

Run with ``pytest bench/bench_zipai.py --benchmark-only``. Rows are 19 held cards plus a winning card (no
declared groups: the largest hand part, so the slowest split). ``random``: 20 cards dealt from the 80;
``complete``: a random winning layout (six triples and a pair or 门子); ``near``: a complete one with one held
card swapped for another card of the set.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import rate
from hupai import _core, zipai

ROWS = 100_000
SINGLE_CALLS = 2_000
OPTIONS = (5, False, True, False)

# Every triple a hand may hold: triplets, runs of one size, 二七十 (WH-7, WH-9).
TRIPLES = [(k, k, k) for k in range(20)] + [(b + v, b + v + 1, b + v + 2) for b in (0, 10) for v in range(8)] + \
    [(b + 1, b + 6, b + 9) for b in (0, 10)]
UNITS = [(k, k) for k in range(20)] + sorted({pair for t in TRIPLES[20:] for pair in ((t[0], t[1]), (t[0], t[2]),
                                                                                        (t[1], t[2]))})


def complete_rows(rng: np.random.Generator, rows: int) -> tuple[np.ndarray, np.ndarray]:
    counts = np.zeros((rows, 20), np.uint8)
    wins = np.zeros(rows, np.int8)
    for row in range(rows):
        deck = np.full(20, 4, np.int16)
        cards: list[int] = []
        while len(cards) < 20:
            shape = TRIPLES[rng.integers(len(TRIPLES))] if len(cards) < 18 else UNITS[rng.integers(len(UNITS))]
            need = np.bincount(shape, minlength=20)
            if (deck >= need).all():
                deck -= need
                cards += shape
        win = cards.pop(int(rng.integers(len(cards))))
        counts[row] = np.bincount(cards, minlength=20)
        wins[row] = win
    return counts, wins


def near_rows(rng: np.random.Generator, rows: int) -> tuple[np.ndarray, np.ndarray]:
    counts, wins = complete_rows(rng, rows)
    for row in range(rows):
        held = np.flatnonzero(counts[row])
        total = counts[row].astype(np.int16)
        total[wins[row]] += 1
        spare = np.flatnonzero(total < 4)
        counts[row, rng.choice(held)] -= 1
        counts[row, rng.choice(spare)] += 1
    return counts, wins


def random_rows(rng: np.random.Generator, rows: int) -> tuple[np.ndarray, np.ndarray]:
    deck = np.repeat(np.arange(20), 4)
    counts = np.zeros((rows, 20), np.uint8)
    wins = np.zeros(rows, np.int8)
    for row in range(rows):
        cards = rng.choice(deck, size=20, replace=False)
        counts[row] = np.bincount(cards[:19], minlength=20)
        wins[row] = cards[19]
    return counts, wins


@pytest.fixture(scope="module")
def hand_sets() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(20261201)
    return {"random": random_rows(rng, ROWS), "near": near_rows(rng, ROWS), "complete": complete_rows(rng, ROWS)}


@pytest.mark.benchmark(group="zipai best split, batch of 100k (19 held + winning card)")
@pytest.mark.parametrize("hand_set", ["random", "near", "complete"])
@pytest.mark.parametrize("threads", [1, 2])
def test_zipai_best_split_batch(benchmark, hand_sets, hand_set, threads):
    counts, wins = hand_sets[hand_set]
    result = benchmark.pedantic(zipai.best_split_batch, args=(counts, wins),
                                kwargs={"source": "other", "threads": threads}, rounds=5, iterations=1,
                                warmup_rounds=1)
    rate(benchmark, len(counts))
    benchmark.extra_info["wins"] = int((result.xi >= 0).sum())


@pytest.mark.benchmark(group="zipai best split, one hand per call")
@pytest.mark.parametrize("hand_set", ["random", "near", "complete"])
def test_zipai_best_split_single(benchmark, hand_sets, hand_set):
    counts, wins = hand_sets[hand_set]
    rows = [(counts[row], int(wins[row])) for row in range(SINGLE_CALLS)]

    def run() -> int:
        return sum(zipai.best_split(hand, (), win, "other") is not None for hand, win in rows)

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    rate(benchmark, SINGLE_CALLS, "calls/s")


@pytest.mark.benchmark(group="zipai best split, one hand per call")
@pytest.mark.parametrize("hand_set", ["near", "complete"])
def test_zipai_core_best_single(benchmark, hand_sets, hand_set):
    """The raw binding, without the wrapper's argument checks and dataclasses."""
    counts, wins = hand_sets[hand_set]
    rows = [(np.ascontiguousarray(counts[row]), int(wins[row])) for row in range(SINGLE_CALLS)]

    def run() -> int:
        return sum(_core.zipai_best(hand, [], win, 2, OPTIONS)[1] is not None for hand, win in rows)

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    rate(benchmark, SINGLE_CALLS, "calls/s")


@pytest.mark.benchmark(group="zipai waits, one 19-card hand per call")
def test_zipai_waits_single(benchmark, hand_sets):
    counts, _ = hand_sets["complete"]
    rows = [counts[row] for row in range(SINGLE_CALLS // 4)]

    def run() -> int:
        return sum(len(zipai.waits(hand)) for hand in rows)

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    rate(benchmark, len(rows), "calls/s")
