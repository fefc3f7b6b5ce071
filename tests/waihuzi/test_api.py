"""The public Wai Huzi analysis API beyond the examples: batches, waits, declared groups and hostile input."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hupai import InvalidHand, _core, zipai
from hupai.zipai import Declared, PartType

from .helpers import random_layout

E3_HAND = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"


def batch_rows(seed: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Held cards and winning cards of random layouts without declared groups (some perturbed: no win)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((rows, 20), np.uint8)
    wins = np.full(rows, -1, np.int8)
    filled = 0
    while filled < rows:
        hand, groups, win, _ = random_layout(rng)
        if groups:
            continue
        if win is not None and filled % 3 == 0:
            hand[0] = win  # often breaks the hand: a near miss
        if max(hand.count(k) for k in hand) + (hand.count(win) if win is not None else 0) > 4:
            continue
        counts[filled] = zipai.to_counts(hand)
        wins[filled] = -1 if win is None else win
        filled += 1
    return counts, wins


@pytest.mark.rule("WH-28", "WH-32")
@pytest.mark.parametrize("threads", [1, 3])
def test_batch_equals_single_calls(threads: int) -> None:
    counts, wins = batch_rows(7, 400)
    for source in ("self", "other"):
        result = zipai.best_split_batch(counts, wins, source=source, threads=threads)
        assert result.xi.dtype == np.int16 and result.score.dtype == np.int64
        for row in range(len(counts)):
            win = None if wins[row] < 0 else int(wins[row])
            best = zipai.best_split(counts[row], (), win, None if win is None else source)
            layouts = zipai.splits(counts[row], (), win, None if win is None else source)
            assert result.xi[row] == (-1 if best is None else best.xi)
            assert result.score[row] == (0 if best is None else best.score)
            assert result.max_xi[row] == max((layout.xi for layout in layouts), default=-1)
        assert (zipai.is_win_batch(counts, wins, source=source) == (result.xi >= 0)).all()
        assert (zipai.best_xi_batch(counts, wins, source=source) == result.max_xi).all()
    assert 0 < (result.xi >= 0).sum() < len(counts)


def test_batch_with_shared_declared_groups_and_one_winning_card() -> None:
    groups = "[溜 d9d9d9d9] [歪 x3x3x3] [碰 d5d5d5] [飘 x6x6x6x6]"
    counts = np.stack([zipai.to_counts("x8 x8 x8 d2 d7 d10 x1"), zipai.to_counts("x8 x8 x8 d2 d7 d10 x4")])
    result = zipai.best_split_batch(counts, zipai.parse("x1")[0], source="other", groups=groups)
    assert result.xi.tolist() == [15, -1] and result.score.tolist() == [480, 0]
    assert zipai.is_win_batch(np.zeros((0, 20), np.uint8)).shape == (0,)


def test_batch_rows_are_copied_while_another_thread_writes() -> None:
    """A writer swaps rows between two valid hands during the call: each row is copied before it is checked,
    so a call either answers every row with one of the two hands' answers or refuses a row it read half-written
    (a torn row mixes the two hands) with InvalidHand; it never reads past what it checked, never crashes."""
    first, second = zipai.to_counts(E3_HAND + " d3"), zipai.to_counts("x1 x2 x3 " * 2 + "x4 x5 x6 " * 4 + "x9 x9")
    answers = {int(zipai.best_split_batch(np.stack([hand])).max_xi[0]) for hand in (first, second)}
    counts = np.tile(first, (20000, 1))
    stop = threading.Event()

    def writer() -> None:
        toggle = False
        while not stop.is_set():
            counts[::7] = second if toggle else first
            toggle = not toggle

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(5):
            try:
                result = zipai.best_split_batch(counts, threads=2)
            except InvalidHand as error:
                assert "row " in str(error)
                continue
            assert set(result.max_xi.tolist()) <= answers
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize(("counts", "message"), [
    (np.zeros((2, 19), np.uint8), "shape"),
    (np.zeros(20, np.uint8), "shape"),
    (np.zeros((2, 20), np.int64), "dtype"),
    (np.zeros((2, 40), np.uint8)[:, ::2], "C-contiguous"),
    ([[0] * 20], "numpy"),
    (np.full((1, 20), 5, np.uint8), "row 0"),
    (np.zeros((1, 20), np.uint8), "row 0: hand and winning card must number 3m\\+2"),
])
def test_batch_refuses_bad_arrays(counts: object, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        zipai.best_split_batch(counts)  # type: ignore[arg-type]


def test_batch_refuses_bad_winning_cards_and_options() -> None:
    counts = np.stack([zipai.to_counts(E3_HAND)])
    for wins in (20, -2, np.zeros(2, np.int8), np.zeros(1, np.float64), "x1"):
        with pytest.raises(InvalidHand, match="win_cards"):
            zipai.best_split_batch(counts, wins)  # type: ignore[arg-type]
    for bad in ({"source": None}, {"source": "dealer"}, {"threads": 0}, {"threads": True}, {"min_huxi": True},
                {"min_huxi": -1}, {"xingxingxi": "loud"}, {"daxiaozihu": 1}):
        with pytest.raises(InvalidHand):
            zipai.best_split_batch(counts, 3, **bad)
    counts[0, [0, 4]] = [4, 1]  # still 19 held, but five x1 with the winning x1
    with pytest.raises(InvalidHand, match="only 4"):
        zipai.best_split_batch(counts, 0)


@pytest.mark.rule("WH-28")
def test_single_calls_refuse_malformed_layouts() -> None:
    with pytest.raises(InvalidHand, match="3m\\+2"):
        zipai.best_split("x1 x1 x1", (), "x2", "self")
    with pytest.raises(InvalidHand, match="source"):
        zipai.best_split("x1", (), "x1")
    with pytest.raises(InvalidHand, match="source"):
        zipai.best_split("x1 x1", (), None, "self")
    with pytest.raises(InvalidHand, match="only 4"):
        zipai.best_split("x1", "[碰 x1x1x1]", "x1", "self")
    with pytest.raises(InvalidHand, match="more than six"):
        zipai.best_split("x1 x2 x3 x4", "[碰 d1d1d1] " * 1 + "[碰 d2d2d2] [碰 d3d3d3] [碰 d4d4d4] [碰 d5d5d5] "
                         "[碰 d6d6d6]", "x5", "self")
    with pytest.raises(InvalidHand, match="3m\\+1"):
        zipai.waits("x1 x2")
    with pytest.raises(InvalidHand):
        zipai.best_split("x1", [("peng", 3)], "x1", "self")  # type: ignore[list-item]
    with pytest.raises(InvalidHand, match="run"):
        Declared.chi("x1 x2 x4", "x1")
    with pytest.raises(InvalidHand, match="not in the run"):
        Declared.chi("x1 x2 x3", "x5")
    with pytest.raises(InvalidHand, match="item 1"):
        Declared.chi([0, 1.5, 2], 0)  # type: ignore[list-item]
    assert Declared.chi(zipai.to_counts("x3 x1 x2"), "x1") == Declared.chi([2, 0, 1], 0)
    with pytest.raises(InvalidHand):
        zipai.parse_groups("[碰 x1x1]")
    with pytest.raises(InvalidHand):
        zipai.parse_groups("[杠 x1x1x1]")
    with pytest.raises(InvalidHand):
        zipai.parse_groups("[碰 x1x1x1")


@pytest.mark.parametrize("group", [
    Declared(PartType.PENG, (1, 1), 1),
    Declared(PartType.LIU, (1, 1, 1), None),
    Declared(PartType.KAN, (1, 1, 1), None),
    Declared(7, (1, 1, 1), 1),  # type: ignore[arg-type]
    Declared(PartType.PENG, [1, 1, 1], 1),  # type: ignore[arg-type]
    Declared(PartType.PENG, (1, 1, True), 1),
    Declared(PartType.PENG, (1, 1, 2**70), 1),
    Declared(PartType.PENG, (1, 1, 1), 2.0),  # type: ignore[arg-type]
    Declared(PartType.PENG, (1, 1, 1), 2),
    Declared(PartType.WAI, (1, 1, 1), 1),
    Declared(PartType.CHI, (1, 2, 4), 1),
])
def test_hand_built_declared_groups_are_checked(group: Declared) -> None:
    with pytest.raises(InvalidHand):
        zipai.best_split("x5 x5 x5 x6 x6 x6 x7 x7 x7 x8 x8 x8 x9", [group], "x9", "other", min_huxi=0)


def test_core_refuses_what_the_wrappers_would_not_send() -> None:
    hand = zipai.to_counts("x1")
    options = (0, False, True, False)
    for declared, message in [
        ([(7, 1, 1, 1, -1)], "takes its card"),      # a 碰 that took nothing
        ([(6, 1, 1, 1, 1)], "takes no card"),         # a 歪 that took one
        ([(10, 1, 2, 4, -1)], "run of one size"),     # not a run
        ([(10, 8, 9, 10, -1)], "run of one size"),    # x9 x10 d1 mixes sizes
        ([(10, 0, 1, 2, 5)], "one of the run's"),
        ([(3, 1, 1, 1, -1)], "not a declared group type"),
        ([(7, 25, 25, 25, 25)], "external card"),
        ([(7, 300, 1, 1, 1)], "small non-negative"),
    ]:
        with pytest.raises(InvalidHand, match=message):
            _core.zipai_best(hand, declared, 0, 1, options)
    for win, source in ((0, 0), (-1, 1), (20, 1), (0, 3), (-5, 0)):
        with pytest.raises(InvalidHand):
            _core.zipai_best(hand, [], win, source, options)
    with pytest.raises(InvalidHand, match="uint8\\[20\\]"):
        _core.zipai_best(np.zeros(34, np.uint8), [], 0, 1, options)
    with pytest.raises(TypeError):
        _core.zipai_best(hand, [(7, 2**70, 0, 0, 0)], 0, 1, options)


def test_declared_groups_in_code_and_in_text_agree() -> None:
    text = zipai.parse_groups("[溜 d9d9d9d9] [歪 x3x3x3] [碰 d5d5d5] [飘 x6x6x6x6] [吃 x2x1x3]")
    code = [Declared.liu("d9"), Declared.wai("x3"), Declared.peng("d5"), Declared.piao("x6"),
            Declared.chi("x1 x2 x3", "x2")]
    assert text == code
    assert str(code[4]) == "[吃 x1x2x3]" and code[4].external_card == 1
    assert Declared.chi([0, 1, 2], 0, own_draw=True).external_card is None
    assert zipai.parse_groups("[peng x1x1x1] [漂 d1d1d1d1]") == [Declared.peng(0), Declared.piao(10)]


@pytest.mark.rule("WH-34")
def test_wh_34_a_chow_of_another_players_card_makes_the_yuan_outer() -> None:
    hand = "x1 x1 x1 x5 x5 x5 x8 x8 x8 d1 d1 d1 d5"
    own = zipai.best_split(hand, [Declared.chi("x1 x2 x3", "x1", own_draw=True)], "d5", "self")
    other = zipai.best_split(hand, [Declared.chi("x1 x2 x3", "x1")], "d5", "self")
    assert own is not None and other is not None
    assert [zipai.card_name(k) for k in own.inner_yuan] == ["x1"] and own.outer_yuan == ()
    assert [zipai.card_name(k) for k in other.outer_yuan] == ["x1"] and other.inner_yuan == ()
    assert own.score == 2 * other.score


@pytest.mark.rule("WH-28", "WH-40")
def test_splits_lists_each_layout_once_best_first() -> None:
    layouts = zipai.splits("x1 x1 x1 x2 x2 x2 x3 x3 x3 x4 x4")
    assert [str(layout) for layout in layouts] == [
        "[坎 x1x1x1 3] [坎 x2x2x2 3] [坎 x3x3x3 3] [对 x4x4 1] 息=10 对子息×8 小字胡×8 score=640",
        "[坎 x1x1x1 3] [句 x2x3x4 0] [句 x2x3x4 0] [门子 x2x3 0] 息=3 小字胡×8 score=24",
        "[句 x1x2x3 0] [句 x1x2x3 0] [句 x1x2x3 0] [对 x4x4 1] 息=1 小字胡×8 score=8",
        "[句 x1x2x3 0] [句 x2x3x4 0] [句 x2x3x4 0] [对 x1x1 1] 息=1 小字胡×8 score=8",
    ]


def test_winning_card_accepts_numpy_integers_and_refuses_bools_floats_and_huge_ints() -> None:
    layout = zipai.best_split(E3_HAND, (), np.int8(12), "other")  # type: ignore[arg-type]
    assert layout is not None and layout.xi == 5
    for bad in (True, 12.0, 2**64, -1, "x1 x2", np.float32(1)):
        with pytest.raises(InvalidHand):
            zipai.best_split(E3_HAND, (), bad, "other")  # type: ignore[arg-type]
    for source in ("dealer", 1, True, zipai.Source.NONE):
        with pytest.raises(InvalidHand, match="source"):
            zipai.best_split(E3_HAND, (), 12, source)  # type: ignore[arg-type]
    assert zipai.best_split(E3_HAND, (), 12, zipai.Source.SELF_DRAWN) is not None
