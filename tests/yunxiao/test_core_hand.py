"""The core's Yunxiao hand questions (``_core.yunxiao_waits``, ``yunxiao_complete``, ``yunxiao_you_shape``,
``yunxiao_you_discards``, ``yunxiao_discard_shanten``; cpp/wild_yunxiao.hpp) against the Python rule layer they
replace in the rule object and the advice (:mod:`hupai.rules.yunxiao.patterns`): the same answers on random hands
of every meld count, exhaustively on small families of hands, and on every hand met in played games; and a clear
:class:`hupai.InvalidHand` for bad input."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest
from hupai import InvalidHand, _core
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game
from hupai.hand import Meld
from hupai.rules.base_advice import ANY_KIND
from hupai.rules.yunxiao import YunxiaoRules
from hupai.rules.yunxiao.hand import WHITE, YunxiaoHand
from hupai.rules.yunxiao.options import YunxiaoOptions
from hupai.rules.yunxiao.patterns import hand_waits, is_complete, you_shape_discards_of, you_shape_of

from .helpers import kind, meld, tiles

FORMS = int(YunxiaoRules.win_forms)
STRICT, LOOSE = YunxiaoOptions(), YunxiaoOptions(buda_loose=True)


def _bits(kinds: object) -> int:
    return sum(1 << k for k in set(kinds))  # type: ignore[call-overload]


def _meld_tiles(melds: tuple[Meld, ...]) -> bytes:
    return b"".join(bytes(m.tiles) for m in melds)


def _reference_shanten(counts: bytes, gold: int, melds: int) -> tuple[int, ...]:
    """The shanten after each physical discard, one shanten_batch row each (golds as jokers, 白板 as G)."""
    out = [127] * 34
    for k in range(34):
        if not counts[k]:
            continue
        row = bytearray(counts)
        row[k] -= 1
        golds = row[gold]
        natural = bytearray(row)
        natural[gold] = row[WHITE] if gold != WHITE else 0
        if gold != WHITE:
            natural[WHITE] = 0
        value = _core.shanten_batch(np.frombuffer(bytes(natural), dtype=np.uint8).reshape(1, 34),
                                    np.array([golds], dtype=np.int32), melds, FORMS, ANY_KIND, 1)
        out[k] = int(value[0])
    return tuple(out)


def _check_waiting(counts: bytes, gold: int, melds: tuple[Meld, ...]) -> bool:
    """The core's waits (both 不搭 options) and 游 shape of a waiting hand equal the Python ones; True if ready."""
    hand = YunxiaoHand.from_counts(counts, gold, melds)
    tiles_ = _meld_tiles(melds)
    ready = False
    for options in (STRICT, LOOSE):
        expected = _bits(hand_waits(hand, options))
        assert _core.yunxiao_waits(counts, gold, tiles_, len(melds), options.buda_loose) == expected, \
            (hand, options.buda_loose)
        ready = ready or bool(expected)
    assert _core.yunxiao_you_shape(counts, gold, tiles_, len(melds)) == you_shape_of(counts, gold, melds), hand
    return ready


def _check_complete_size(counts: bytes, gold: int, melds: tuple[Meld, ...]) -> bool:
    """The same for a winning-size hand: complete, the 游 discards and the shanten after each discard."""
    hand = YunxiaoHand.from_counts(counts, gold, melds)
    tiles_ = _meld_tiles(melds)
    complete = False
    for options in (STRICT, LOOSE):
        expected = is_complete(hand, options)
        assert _core.yunxiao_complete(counts, gold, tiles_, len(melds), options.buda_loose) == expected, hand
        complete = complete or expected
    assert _core.yunxiao_you_discards(counts, gold, tiles_, len(melds)) == \
        _bits(you_shape_discards_of(counts, gold, melds)), hand
    assert _core.yunxiao_discard_shanten(counts, gold, len(melds), FORMS) == \
        _reference_shanten(counts, gold, len(melds)), hand
    return complete


def _random_melds(rng: random.Random, count: int, gold: int) -> tuple[Meld, ...]:
    """Declared melds as the engine records them: chows in effective kinds, pungs and kongs physical (a 白板
    pung stays 5z), never of golds."""
    out = []
    for _ in range(count):
        shape = rng.choice(("chow", "pung", "kong"))
        if shape == "chow":
            start = 9 * rng.randrange(3) + rng.randrange(7)
            out.append(Meld("chow", (start, start + 1, start + 2)))
        else:
            k = rng.choice([k for k in range(34) if k != gold])
            out.append(Meld(shape, (k,) * (3 if shape == "pung" else 4), concealed=rng.random() < 0.3))
    return tuple(out)


def _random_hands(seed: int, count: int) -> Iterator[tuple[bytes, int, tuple[Meld, ...], bytes]]:
    """(waiting counts, gold, melds, the same hand with one more tile): mostly from a few kinds, golds and 白板
    among them, so that many are ready, complete or in 游 shape; some from the whole wall."""
    rng = random.Random(seed)
    for _ in range(count):
        gold = rng.randrange(34)
        melds = _random_melds(rng, rng.choice((0, 0, 0, 1, 2, 3, 4)), gold)
        used = bytearray(34)
        for m in melds:
            for k in m.tiles:
                used[k] += 1
        few = {*rng.sample(range(34), rng.randrange(3, 9)), gold, WHITE}
        kinds = sorted(few) if rng.random() < 0.8 else list(range(34))
        wall = [k for k in kinds for _ in range(4 - min(4, used[k]))]
        if rng.random() < 0.2:  # 不搭 / 幺九 material: single tiles of many kinds
            wall = [k for k in range(34) if not used[k]] + [gold] * 2
        rng.shuffle(wall)
        size = 13 - 3 * len(melds)
        if len(wall) <= size:
            continue
        counts = bytearray(34)
        for k in wall[:size + 1]:
            counts[k] += 1
        grown = bytes(counts)
        counts[wall[size]] -= 1
        yield bytes(counts), gold, melds, grown


@pytest.mark.parametrize("seed", range(4))
def test_yx_8_yx_25_yx_32_to_35_core_answers_equal_the_rule_layer_on_random_hands(seed: int) -> None:
    """YX-8 (room with declared melds), YX-25 (游 shape), YX-32..35 (every form, strict and loose 不搭): the core
    gives the Python answers on 2500 random hands of every meld count per seed."""
    ready = complete = 0
    for counts, gold, melds, grown in _random_hands(seed, 2500):
        ready += _check_waiting(counts, gold, melds)
        complete += _check_complete_size(grown, gold, melds)
    assert ready > 300 and complete > 100  # the cases that matter are met


def test_yx_33_to_35_core_answers_equal_the_rule_layer_on_unstructured_hands() -> None:
    """YX-33 seven pairs, YX-34 幺九, YX-35 不搭 (strict and loose) with golds filling them: literal hands the
    random ones rarely reach, each form winning, and every wait of them."""
    cases = [("19m19p19s1234567z", "3m"), ("147m258p369s1234z", "9m"), ("147m258p36s12345z", "5z"),
             ("1122m3344p5566s7z", "8s"), ("147m25p369s12345z", "1m"), ("19m19p19s1234557z", "1z")]
    seen = 0
    for concealed, gold in cases:
        counts = bytearray(34)
        for k in tiles(concealed):
            counts[k] += 1
        seen += _check_waiting(bytes(counts), kind(gold), ())
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                _check_complete_size(bytes(counts), kind(gold), ())
                counts[k] -= 1
    assert seen == len(cases)


def _multisets(kinds: list[int], size: int) -> Iterator[bytes]:
    for combo in itertools.combinations_with_replacement(kinds, size):
        counts = bytearray(34)
        for k in combo:
            counts[k] += 1
        if max(counts) <= 4:
            yield bytes(counts)


@pytest.mark.parametrize(("gold", "melds"), [
    ("5m", ("555z", "123p", "789s")),        # YX-7: a 白板 pung plays as the gold's kind, YX-8 room shrinks
    ("5z", ("567m", "111z", "2222z")),       # the gold is 白板 itself
    ("9p", ("789p", "999p", "123s")),        # declared tiles of the gold's kind
])
def test_yx_8_core_answers_equal_the_rule_layer_exhaustively_with_three_melds(gold: str,
                                                                               melds: tuple[str, ...]) -> None:
    """YX-8: every 4-tile concealed part (and every 5-tile one) over the kinds near the gold and the melds."""
    g = kind(gold)
    declared = tuple(meld(text) for text in melds)
    kinds = sorted({g, WHITE, *range(g - g % 9, g - g % 9 + 9)} if g < 27 else {g, WHITE, *range(27, 34)})
    ready = 0
    for counts in _multisets(kinds, 4):
        ready += _check_waiting(counts, g, declared)
    for counts in _multisets(kinds, 5):
        _check_complete_size(counts, g, declared)
    assert ready > 20


def test_yx_32_core_answers_equal_the_rule_layer_exhaustively_on_one_suit_with_two_melds() -> None:
    """YX-32 with golds and 白板 as G: every 7-tile concealed part of 1m..9m, 白板 and the gold 5m, two melds."""
    g = kind("5m")
    declared = (meld("456p"), meld("777s"))
    ready = 0
    for counts in _multisets([*range(9), WHITE], 7):
        ready += _check_waiting(counts, g, declared)
    assert ready > 500


def test_core_answers_equal_the_rule_layer_on_played_hands() -> None:
    """Every waiting and winning-size hand of 20 seeded games of both bots."""
    rules = YunxiaoRules()
    checked = 0
    for seed in range(20):
        game = Game(rules, seed=seed, claim_window="eligible")
        bots = [(GreedyBot if seed % 2 else RandomBot)(seed + s) for s in range(4)]
        while not game.over:
            table = game.table
            for seat in range(4):
                counts, melds = bytes(table.hands[seat]), tuple(table.melds[seat])
                size = sum(counts) + 3 * len(melds)
                if size == 13:
                    _check_waiting(counts, table.extras["gold"], melds)
                elif size == 14:
                    _check_complete_size(counts, table.extras["gold"], melds)
                checked += 1
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert checked > 1000


@pytest.mark.parametrize(("call", "args", "message"), [
    ("yunxiao_waits", (bytes(34), 0, b"", 0, False), "waiting hand with 0 melds has 13"),
    ("yunxiao_waits", (bytes([5]) + bytes(33), 0, b"", 0, False), "outside 0..4"),
    ("yunxiao_waits", (b"\x01" * 13 + bytes(21), 34, b"", 0, False), "gold"),
    ("yunxiao_waits", (b"\x01" * 13 + bytes(21), 0, b"\x01\x02", 1, False), "3 to 4 tiles"),
    ("yunxiao_waits", (b"\x01" * 10 + bytes(24), 0, b"\x01\x02\x40", 1, False), "not a kind"),
    ("yunxiao_waits", (b"\x01" * 10 + bytes(24), 0, [1, 2, 3], 1, False), "meld_tiles must be bytes"),
    ("yunxiao_complete", ([1] * 34, 0, b"", 0, False), "34 counts"),
    ("yunxiao_you_shape", (bytes(34), 0, b"", 5), "melds"),
    ("yunxiao_you_discards", (bytes(34), True, b"", 0), "bool"),
    ("yunxiao_discard_shanten", (bytes(34), 0, 0, 0), "forms"),
])
def test_core_hand_questions_refuse_bad_input_with_invalid_hand(call: str, args: tuple[object, ...],
                                                                message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        getattr(_core, call)(*args)


def test_core_hand_questions_take_the_table_bytearray_and_a_numpy_array() -> None:
    counts = bytearray(34)
    for k in tiles("123m456m789p5s111z"):
        counts[k] += 1
    gold = kind("9s")
    expected = _core.yunxiao_waits(bytes(counts), gold, b"", 0, False)
    assert expected == 1 << kind("5s") | 1 << gold
    assert _core.yunxiao_waits(counts, gold, b"", 0, False) == expected
    assert _core.yunxiao_waits(np.frombuffer(bytes(counts), dtype=np.uint8), gold, b"", 0, False) == expected


def _reference_rows_shanten(rows: np.ndarray, gold: int, melds: int | np.ndarray) -> list[int]:
    """The advice's shanten as it was computed before: natural rows (白板 as G) and per-row jokers in numpy."""
    jokers = rows[:, gold].astype(np.int32)
    natural = rows.copy()
    natural[:, gold] = rows[:, WHITE] if gold != WHITE else 0
    if gold != WHITE:
        natural[:, WHITE] = 0
    return list(_core.shanten_batch(natural, jokers, melds, FORMS, ANY_KIND, 1).tolist())


@pytest.mark.parametrize("seed", range(2))
def test_yx_6_yx_7_core_shanten_rows_equal_the_numpy_rows(seed: int) -> None:
    """YX-6 golds as jokers, YX-7 白板 as the gold's face: the advice's row shanten (claims) from one core call
    equals the natural rows built in numpy, one meld count for all rows or one per row."""
    for counts, gold, melds, grown in _random_hands(seed, 500):
        rows = np.frombuffer(counts + grown, dtype=np.uint8).reshape(2, 34)  # a waiting and a winning size
        count = len(melds)
        assert _core.yunxiao_shanten_rows(rows, gold, count, FORMS).tolist() == \
            _reference_rows_shanten(rows, gold, count)
        per_row = np.array([count, count], dtype=np.int32)
        assert _core.yunxiao_shanten_rows(rows, gold, per_row, FORMS).tolist() == \
            _reference_rows_shanten(rows, gold, per_row)


def test_core_shanten_rows_refuse_bad_rows_with_invalid_hand() -> None:
    with pytest.raises(InvalidHand, match="uint8\\[N, 34\\]"):
        _core.yunxiao_shanten_rows(np.zeros((2, 33), dtype=np.uint8), 0, 0, FORMS)
    with pytest.raises(InvalidHand, match="one int per row"):
        _core.yunxiao_shanten_rows(np.zeros((2, 34), dtype=np.uint8), 0, np.zeros(3, dtype=np.int32), FORMS)
    with pytest.raises(InvalidHand):
        _core.yunxiao_shanten_rows(np.full((1, 34), 5, dtype=np.uint8), 0, 0, FORMS)
