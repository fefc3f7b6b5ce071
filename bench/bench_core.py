"""Hand-analysis throughput: hupai's core side by side with the peer libraries, in one run.

Run with ``make bench`` (or ``pytest bench --benchmark-only``). Each benchmark records hands (or calls) per
second in ``extra_info``; the README lists the figures of the last run on the reference machine.

Peers (all single-threaded, one hand per Python call): ``mahjong`` (pure Python, riichi), ``riichienv``
(Rust engine, riichi: standard + seven pairs + thirteen orphans), ``pymahjonggb`` (C++ MahjongGB, Guobiao:
its MahjongShanten also covers the knitted forms, RegularShanten is the standard form alone).
"""

from __future__ import annotations

import subprocess
import sys

import hupai
import numpy as np
import pytest
from conftest import rate
from hupai import Forms

RIICHI_FORMS = Forms.STANDARD | Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS
PEER_ROWS = 3_000  # peers answer one hand per Python call; a few thousand hands give a stable rate


def _batch(benchmark, function, counts, **kwargs):
    result = benchmark.pedantic(function, args=(counts,), kwargs=kwargs, rounds=7, iterations=1, warmup_rounds=1)
    rate(benchmark, len(counts))
    return result


# --------------------------------------------------------------------------- hupai batch calls

@pytest.mark.benchmark(group="shanten 3 forms (standard + seven pairs + thirteen orphans), 1M hands")
@pytest.mark.parametrize("hand_set", ["random14", "near14"])
def test_hupai_shanten_batch_three_forms(benchmark, request, hand_set):
    _batch(benchmark, hupai.shanten_batch, request.getfixturevalue(hand_set), forms=RIICHI_FORMS)


@pytest.mark.benchmark(group="shanten standard form, 1M hands")
@pytest.mark.parametrize("hand_set", ["random14", "near14"])
def test_hupai_shanten_batch_standard(benchmark, request, hand_set):
    _batch(benchmark, hupai.shanten_batch, request.getfixturevalue(hand_set), forms=Forms.STANDARD)


@pytest.mark.benchmark(group="threads")
@pytest.mark.parametrize("threads", [1, 2])
def test_hupai_shanten_batch_threads(benchmark, mixed14, threads):
    _batch(benchmark, hupai.shanten_batch, mixed14, forms=RIICHI_FORMS, threads=threads)


@pytest.mark.benchmark(group="is_win, 1M hands")
@pytest.mark.parametrize("hand_set", ["random14", "near14", "complete14"])
def test_hupai_is_win_batch(benchmark, request, hand_set):
    _batch(benchmark, hupai.is_win_batch, request.getfixturevalue(hand_set))


@pytest.mark.benchmark(group="threads")
@pytest.mark.parametrize("threads", [1, 2])
def test_hupai_is_win_batch_threads(benchmark, mixed14, threads):
    _batch(benchmark, hupai.is_win_batch, mixed14, threads=threads)


@pytest.mark.benchmark(group="jokers: shanten standard form, 1M hands")
@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
def test_hupai_shanten_batch_jokers(benchmark, mixed14, jokers):
    import hands

    counts = hands.with_jokers(mixed14, jokers) if jokers else mixed14
    _batch(benchmark, hupai.shanten_batch, counts, jokers=jokers, forms=Forms.STANDARD)


# --------------------------------------------------------------------------- one hand per Python call

def _per_call_loop(benchmark, loop, count):
    """Time ``loop`` (which makes ``count`` calls, keyword arguments written at the call as a user would)."""
    benchmark.pedantic(loop, rounds=5, iterations=1, warmup_rounds=1)
    rate(benchmark, count, "calls/s")


def _per_call(benchmark, call, items):
    benchmark.pedantic(lambda: [call(item) for item in items], rounds=5, iterations=1, warmup_rounds=1)
    rate(benchmark, len(items), "calls/s")


@pytest.mark.benchmark(group="one call per hand: shanten 3 forms")
def test_hupai_shanten_single_call(benchmark, mixed14):
    rows = list(mixed14[:100_000])
    def loop():
        for row in rows:
            shanten(row, forms=RIICHI_FORMS)

    shanten = hupai.shanten
    _per_call_loop(benchmark, loop, len(rows))


@pytest.mark.benchmark(group="one call per hand: shanten standard form")
def test_hupai_shanten_single_call_standard(benchmark, mixed14):
    rows = list(mixed14[:100_000])
    _per_call(benchmark, hupai.shanten, rows)


@pytest.mark.benchmark(group="one call per hand: shanten standard form, with jokers")
@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
def test_hupai_shanten_single_call_jokers(benchmark, mixed14, jokers):
    """The same call for every joker count, ``shanten(row, jokers=j)`` written in the loop as a user would,
    so the rates compare with each other and with the plain call."""
    import hands

    rows = list(hands.with_jokers(mixed14[:100_000], jokers) if jokers else mixed14[:100_000])
    def loop():
        for row in rows:
            shanten(row, jokers=jokers)

    shanten = hupai.shanten
    _per_call_loop(benchmark, loop, len(rows))


@pytest.mark.benchmark(group="one call per hand: shanten 3 forms")
def test_peer_mahjong_shanten(benchmark, mixed14):
    from mahjong.shanten import Shanten

    calculator = Shanten()
    rows = [row.tolist() for row in mixed14[:PEER_ROWS]]
    _per_call(benchmark, calculator.calculate_shanten, rows)


@pytest.mark.benchmark(group="one call per hand: shanten standard form")
def test_peer_mahjong_shanten_standard(benchmark, mixed14):
    from mahjong.shanten import Shanten

    calculator = Shanten()
    rows = [row.tolist() for row in mixed14[:PEER_ROWS]]
    _per_call(benchmark, calculator.calculate_shanten_for_regular_hand, rows)


def _tile_ids(row: np.ndarray) -> list[int]:
    """136-format tile ids (kind * 4 + copy) of a counts row."""
    return [4 * kind + copy for kind in np.flatnonzero(row) for copy in range(int(row[kind]))]


@pytest.mark.benchmark(group="one call per hand: shanten 3 forms")
def test_peer_riichienv_shanten(benchmark, mixed14):
    riichienv = pytest.importorskip("riichienv")
    rows = [_tile_ids(row) for row in mixed14[:PEER_ROWS * 10]]
    _per_call(benchmark, riichienv.calculate_shanten, rows)


_GB_NAMES = [f"W{n}" for n in range(1, 10)] + [f"B{n}" for n in range(1, 10)] + \
    [f"T{n}" for n in range(1, 10)] + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]


def _gb_tiles(row: np.ndarray) -> tuple[str, ...]:
    return tuple(_GB_NAMES[kind] for kind in np.flatnonzero(row) for _ in range(int(row[kind])))


@pytest.mark.benchmark(group="one call per hand: shanten standard form")
def test_peer_mahjonggb_regular_shanten(benchmark, mixed14):
    gb = pytest.importorskip("MahjongGB")
    # MahjongGB takes the 13 standing tiles of a waiting hand: drop each row's last tile.
    rows = [_gb_tiles(row)[:13] for row in mixed14[:PEER_ROWS * 10]]
    _per_call(benchmark, lambda hand: gb.RegularShanten(hand=hand), rows)


@pytest.mark.benchmark(group="one call per hand: every discard's shanten and improving tiles")
@pytest.mark.parametrize("forms", [Forms.STANDARD | Forms.THIRTEEN_ORPHANS, Forms.STANDARD | Forms.SEVEN_PAIRS_QUADS],
                         ids=["guangdong", "kawuxing"])
def test_hupai_discard_scores_single_call(benchmark, mixed14, forms):
    """What GreedyBot asks at every turn (``_core.discard_scores``, Guangdong's and Kawuxing's forms): per kind
    held, the shanten after discarding it and the unseen copies of the draws that would then lower it."""
    from hupai import _core

    rows = [bytes(row) for row in mixed14[:20_000]]
    mask = (1 << 34) - 1
    def loop():
        for row in rows:
            scores(row, 0, 0, forms, mask)

    scores = _core.discard_scores
    _per_call_loop(benchmark, loop, len(rows))


@pytest.mark.benchmark(group="one call per hand: every discard's shanten and improving tiles")
def test_hupai_discard_options_single_call(benchmark, mixed14):
    """The public form of the same analysis, ``hupai.discard_options`` (a named tuple per kind held)."""
    _per_call(benchmark, hupai.discard_options, list(mixed14[:20_000]))


@pytest.mark.benchmark(group="one call per hand: shanten all Guobiao forms (MahjongGB)")
def test_peer_mahjonggb_all_forms_shanten(benchmark, mixed14):
    gb = pytest.importorskip("MahjongGB")
    rows = [_gb_tiles(row)[:13] for row in mixed14[:PEER_ROWS * 10]]
    _per_call(benchmark, lambda hand: gb.MahjongShanten(hand=hand, pack=()), rows)


@pytest.mark.benchmark(group="one call per hand: shanten all Guobiao forms (MahjongGB)")
def test_hupai_all_forms_single_call(benchmark, mixed14):
    rows = [row.copy() for row in mixed14[:100_000]]
    for row in rows:  # 13 tiles, as MahjongGB gets them
        row[np.flatnonzero(row)[-1]] -= 1
    forms = RIICHI_FORMS | Forms.KNITTED
    def loop():
        for row in rows:
            shanten(row, forms=forms)

    shanten = hupai.shanten
    _per_call_loop(benchmark, loop, len(rows))


@pytest.mark.benchmark(group="win check, one call per hand")
def test_peer_mahjong_is_agari(benchmark, mixed14):
    from mahjong.agari import Agari

    agari = Agari()
    rows = [row.tolist() for row in mixed14[:PEER_ROWS * 10]]
    _per_call(benchmark, agari.is_agari, rows)


@pytest.mark.benchmark(group="win check, one call per hand")
def test_hupai_is_win_single_call(benchmark, mixed14):
    rows = list(mixed14[:100_000])
    _per_call(benchmark, hupai.is_win, rows)


# --------------------------------------------------------------------------- footprint

@pytest.mark.benchmark(group="footprint")
def test_import_time_and_table_memory(benchmark):
    """Wall time of ``import hupai`` in a fresh interpreter, of building the tables (on first use), and their
    memory."""
    code = ("import time; t = time.perf_counter(); import hupai; t1 = time.perf_counter(); "
            "hupai._core.suit_table_entry([0] * 9); t2 = time.perf_counter(); "
            "print(t1 - t, t2 - t1, hupai._core.table_bytes())")

    def measure():
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout

    outputs = benchmark.pedantic(lambda: [measure() for _ in range(5)], rounds=1, iterations=1)
    if not outputs:
        return
    imports, builds, table_bytes = zip(*[map(float, line.split()) for line in outputs], strict=True)
    benchmark.extra_info["import_ms_median"] = round(1000 * float(np.median(imports)), 1)
    benchmark.extra_info["table_build_ms_median"] = round(1000 * float(np.median(builds)), 1)
    benchmark.extra_info["table_bytes"] = int(table_bytes[0])
