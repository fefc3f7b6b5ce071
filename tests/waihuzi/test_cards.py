"""Wai Huzi card notation (WH-1, WH-2, DESIGN §2): parse, format, counts, and malformed input."""

from __future__ import annotations

import numpy as np
import pytest
from hupai import InvalidHand, zipai
from hypothesis import given
from hypothesis import strategies as st

from . import reference

card_lists = st.lists(st.integers(0, 19), max_size=30).filter(lambda cards: all(cards.count(k) <= 4 for k in cards))


@pytest.mark.rule("WH-1")
def test_wh_1_eighty_cards_four_of_each() -> None:
    assert len(zipai.ALL_CARDS) == 80
    assert (zipai.to_counts(list(zipai.ALL_CARDS)) == 4).all()


@pytest.mark.rule("WH-2")
def test_wh_2_red_cards() -> None:
    reds = [card for card in zipai.ALL_CARDS if zipai.is_red(card)]
    assert len(reds) == 24
    assert zipai.format_cards(sorted(set(reds))) == "x2 x7 x10 d2 d7 d10"
    assert zipai.format_cards(sorted(set(reds)), "chinese") == "二七十贰柒拾"


def test_ascii_and_chinese_forms() -> None:
    assert zipai.parse("x1x2x3 d10,D1 X10") == [0, 1, 2, 19, 10, 9]
    assert zipai.parse("一二三四五六七八九十") == list(range(10))
    assert zipai.parse("壹贰叁肆伍陆柒捌玖拾") == list(range(10, 20))
    assert zipai.parse("貳參叄陸") == [11, 12, 12, 15]  # traditional and variant big numerals
    assert zipai.parse("小一 大壹 大二 小十") == [0, 10, 11, 9]
    assert zipai.parse("x1 一 d1 壹") == [0, 0, 10, 10]
    assert zipai.card_name(19) == "d10" and zipai.card_name(9, "chinese") == "十"
    assert zipai.format_cards("d10 x1 x2") == "x1 x2 d10"
    assert zipai.format_cards("d10 x1", sort=False) == "d10 x1"
    assert zipai.value_of(19) == 10 and zipai.is_big(10) and not zipai.is_big(9)


@given(card_lists)
def test_round_trip_in_both_styles(cards: list[int]) -> None:
    styles: tuple[zipai.cards.Style, ...] = ("ascii", "chinese")
    for style in styles:
        text = zipai.format_cards(cards, style)
        assert zipai.parse(text) == sorted(cards)
        assert zipai.parse(zipai.format_cards(cards, style, sort=False)) == cards
    counts = zipai.to_counts(cards)
    assert counts.dtype == np.uint8 and counts.shape == (20,)
    assert zipai.to_kinds(counts) == sorted(cards)
    assert zipai.to_kinds(zipai.format_cards(counts)) == sorted(cards)


@given(st.text(alphabet="xXdD0123456789 ,一二十壹拾小大q", max_size=12))
def test_any_text_parses_or_raises_invalid_hand(text: str) -> None:
    try:
        kinds = zipai.parse(text)
    except InvalidHand as error:
        assert "position" in str(error)
    else:
        assert all(0 <= kind < 20 for kind in kinds)
        assert zipai.parse(zipai.format_cards(kinds, sort=False)) == kinds


@pytest.mark.parametrize(("text", "position", "character"), [
    ("x1 q", 3, "'q'"),
    ("x11", 2, "'1'"),
    ("x0", 0, "'x'"),
    ("x", 0, "'x'"),
    ("x1 5", 3, "'5'"),
    ("一 小壹", 2, "'小'"),
    ("大", 0, "'大'"),
    ("x1 🀄", 3, "'🀄'"),
    ("1m", 0, "'1'"),
])
def test_malformed_text_names_the_character_and_position(text: str, position: int, character: str) -> None:
    with pytest.raises(InvalidHand) as error:
        zipai.parse(text)
    assert f"position {position}" in str(error.value) and character in str(error.value)


def test_kind_lists_accept_numpy_integers_and_refuse_bools_and_floats() -> None:
    assert zipai.to_kinds([np.int64(3), np.uint8(19)]) == [3, 19]  # type: ignore[list-item]
    for bad in ([True], [1.0], [20], [-1], ["x1"], [2**70], [None]):
        with pytest.raises(InvalidHand, match="item 0"):
            zipai.to_counts(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidHand, match="only 4"):
        zipai.to_counts("x1 x1 x1 x1 x1")
    with pytest.raises(InvalidHand):
        zipai.to_counts(42)  # type: ignore[arg-type]
    with pytest.raises(InvalidHand):
        zipai.parse(b"x1")  # type: ignore[arg-type]


@pytest.mark.parametrize("array", [
    np.zeros(19, np.uint8), np.zeros((2, 20), np.uint8), np.zeros(20, np.float64), np.zeros(20, bool),
    np.full(20, 5, np.uint8), np.full(20, -1, np.int64), np.zeros(20, object),
])
def test_bad_counts_vectors_are_refused(array: np.ndarray) -> None:
    with pytest.raises(InvalidHand):
        zipai.to_counts(array)


def test_counts_vector_of_another_int_dtype_is_accepted() -> None:
    counts = np.zeros(20, np.int64)
    counts[[0, 19]] = [2, 4]
    assert zipai.to_kinds(counts) == [0, 0, 19, 19, 19, 19]
    assert zipai.to_counts(counts[::1]).dtype == np.uint8
    assert zipai.to_kinds(np.repeat(counts, 2)[::2]) == [0, 0, 19, 19, 19, 19]  # strided view


@pytest.mark.rule("WH-7")
def test_wh_7_runs_never_mix_sizes() -> None:
    assert len(zipai.RUNS) == 18
    assert zipai.is_run(zipai.parse("x2 x7 x10")) and zipai.is_run(zipai.parse("d10 d8 d9"))
    assert not zipai.is_run(zipai.parse("x9 x10 d1")) and not zipai.is_run(zipai.parse("x2 x7 d10"))
    assert not zipai.is_run(zipai.parse("x1 x1 x2"))


@pytest.mark.rule("WH-8")
def test_wh_8_menzi_and_their_completing_cards() -> None:
    def names(first: str, second: str) -> list[str]:
        cards = zipai.completing_cards(zipai.parse(first)[0], zipai.parse(second)[0])
        return [zipai.card_name(card) for card in cards]

    assert names("x3", "x4") == ["x2", "x5"]
    assert names("x3", "x5") == ["x4"]
    assert names("x2", "x7") == ["x10"] and names("x7", "x10") == ["x2"] and names("d2", "d10") == ["d7"]
    assert names("x2", "x3") == ["x1", "x4"]
    assert names("x9", "x10") == ["x8"] and names("x10", "d1") == [] and names("x3", "x3") == []
    menzi = {(a, b) for a in range(20) for b in range(a + 1, 20) if zipai.is_menzi(a, b)}
    assert len(menzi) == 40  # per size: 9 neighbours, 8 gaps of one, and 二七 二十 七十
    assert menzi == set(reference.MENZI)


@pytest.mark.rule("WH-21", "WH-23", "WH-26")
def test_menzi_for_gives_the_ways_to_chow_and_the_bans_they_imply() -> None:
    # WH-21: holding x1x2x3 and discarding x1 makes x1 and x4 臭 (x2x3 is the 门子 x1 completes).
    left = zipai.parse("x2 x3")
    x1, x4 = zipai.parse("x1 x4")
    assert zipai.menzi_for(left, x1) == [(1, 2)]
    assert [c for c in zipai.completing_cards(1, 2) if c != x1] == [x4]
    # WH-E15: x3 x4 passing x2 bans chowing x5 with that 门子.
    assert zipai.menzi_for("x3 x4", zipai.parse("x2")[0]) == [(2, 3)]
    # WH-E16: x2 x3 x4 chowing x1 with x2x3 locks x4, the 门子's other completing card.
    assert zipai.menzi_for("x2 x3 x4", x1) == [(1, 2)]
    assert zipai.completing_cards(1, 2) == (x1, x4)
    assert zipai.menzi_for("x1 x2 x3 x4 x5 x7 x10", zipai.parse("x3")[0]) == [(0, 1), (1, 3), (3, 4)]
    assert zipai.menzi_for("x2 x7", zipai.parse("x10")[0]) == [(1, 6)]
    with pytest.raises(InvalidHand):
        zipai.menzi_for("x1 x2", 20)
