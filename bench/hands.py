"""Seeded hand generators for the benchmarks (uint8[N, 34] counts arrays)."""

from __future__ import annotations

import numpy as np

WALL = np.repeat(np.arange(34, dtype=np.intp), 4)


def random_hands(rows: int, size: int = 14, seed: int = 1) -> np.ndarray:
    """Rows of ``size`` tiles drawn without replacement from a full 136-tile set."""
    rng = np.random.default_rng(seed)
    out = np.zeros((rows, 34), np.uint8)
    chunk = 100_000
    for start in range(0, rows, chunk):
        stop = min(rows, start + chunk)
        picks = np.argpartition(rng.random((stop - start, 136), dtype=np.float32), size, axis=1)[:, :size]
        kinds = WALL[picks]
        np.add.at(out[start:stop], (np.repeat(np.arange(stop - start), size), kinds.ravel()), 1)
    return out


def complete_hands(rows: int, seed: int = 2) -> np.ndarray:
    """Random complete 14-tile hands: four pungs/chows and a pair, never more than four of a kind."""
    rng = np.random.default_rng(seed)
    chow_starts = np.array([s + 9 * suit for suit in range(3) for s in range(7)])
    out = np.zeros((rows, 34), np.uint8)
    todo = np.arange(rows)
    while todo.size:
        hands = np.zeros((todo.size, 34), np.int16)
        index = np.arange(todo.size)
        for _ in range(4):
            meld = rng.integers(0, 34 + 21, todo.size)
            pung = meld < 34
            np.add.at(hands, (index[pung], meld[pung]), 3)
            first = chow_starts[meld[~pung] - 34]
            for offset in range(3):
                np.add.at(hands, (index[~pung], first + offset), 1)
        np.add.at(hands, (index, rng.integers(0, 34, todo.size)), 2)
        ok = hands.max(axis=1) <= 4
        out[todo[ok]] = hands[ok]
        todo = todo[~ok]
    return out


def near_complete_hands(rows: int, swaps: int = 1, seed: int = 3) -> np.ndarray:
    """Complete hands with ``swaps`` tiles replaced by random kinds (so mostly 0- and 1-shanten)."""
    rng = np.random.default_rng(seed)
    hands = complete_hands(rows, seed).astype(np.int16)
    index = np.arange(rows)
    for _ in range(swaps):
        # Remove a random held tile: pick a kind with probability proportional to its count.
        cumulative = hands.cumsum(axis=1)
        target = rng.integers(0, cumulative[:, -1])
        removed = (cumulative <= target[:, None]).sum(axis=1)
        hands[index, removed] -= 1
        added = rng.integers(0, 34, rows)
        full = hands[index, added] >= 4
        added[full] = removed[full]  # cannot add a fifth copy: put the tile back instead
        hands[index, added] += 1
    return hands.astype(np.uint8)


def with_jokers(hands: np.ndarray, jokers: int, seed: int = 4) -> np.ndarray:
    """Take ``jokers`` random tiles out of every row (the caller passes them as jokers)."""
    rng = np.random.default_rng(seed)
    out = hands.astype(np.int16)
    index = np.arange(len(out))
    for _ in range(jokers):
        cumulative = out.cumsum(axis=1)
        target = rng.integers(0, cumulative[:, -1])
        out[index, (cumulative <= target[:, None]).sum(axis=1)] -= 1
    return out.astype(np.uint8)
