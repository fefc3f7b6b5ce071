"""Tile notation (DESIGN §2): kind numbering, ASCII / Chinese / Unicode parsing and formatting, round
trips."""

from __future__ import annotations

import hupai
import numpy as np
import pytest
from hupai import InvalidHand, tiles
from hypothesis import given, settings
from hypothesis import strategies as st

# Independent transcription of the DESIGN §2 table (kind -> ASCII, Chinese, Unicode code point).
NUMERALS = "一二三四五六七八九"
EXPECTED_NAMES = (
    [(f"{n + 1}m", f"{NUMERALS[n]}万", 0x1F007 + n) for n in range(9)]
    + [(f"{n + 1}p", f"{NUMERALS[n]}筒", 0x1F019 + n) for n in range(9)]
    + [(f"{n + 1}s", f"{NUMERALS[n]}条", 0x1F010 + n) for n in range(9)]
    + [
        ("1z", "东", 0x1F000),
        ("2z", "南", 0x1F001),
        ("3z", "西", 0x1F002),
        ("4z", "北", 0x1F003),
        ("5z", "白", 0x1F006),
        ("6z", "发", 0x1F005),
        ("7z", "中", 0x1F004),
    ]
)

hands = st.lists(st.integers(0, 33), max_size=18).filter(lambda ks: all(ks.count(k) <= 4 for k in set(ks)))


@pytest.mark.parametrize("kind", range(34))
def test_every_kind_has_the_design_names(kind: int) -> None:
    """kind_name in the three styles matches the DESIGN table; each name parses back to the kind."""
    ascii_name, chinese, code = EXPECTED_NAMES[kind]
    assert tiles.kind_name(kind) == ascii_name
    assert tiles.kind_name(kind, "chinese") == chinese
    assert tiles.kind_name(kind, "unicode") == chr(code)
    for name in (ascii_name, chinese, chr(code)):
        assert hupai.parse(name) == [kind]


@settings(max_examples=300, deadline=None)
@given(hands, st.sampled_from(["ascii", "chinese", "unicode"]))
def test_format_then_parse_round_trips_exactly(kinds: list[int], style: str) -> None:
    """parse(format_tiles(x, style)) == sorted(x), and to_counts agrees with the kinds, in every style."""
    text = hupai.format_tiles(kinds, style)
    assert hupai.parse(text) == sorted(kinds)
    assert hupai.to_counts(text).tolist() == np.bincount(np.array(kinds, dtype=int), minlength=34).tolist()
    assert tiles.to_kinds(hupai.to_counts(kinds)) == sorted(kinds)


def test_ascii_format_groups_digits_before_suit_letter() -> None:
    """Canonical ASCII: sorted, digits grouped per suit, suits in m p s z order."""
    assert hupai.format_tiles([27, 0, 1, 2, 27]) == "123m11z"
    assert hupai.format_tiles("9s1m5z1p") == "1m1p9s5z"
    assert hupai.format_tiles([]) == ""


@pytest.mark.parametrize(
    "text, kinds",
    [
        ("123m456p789s11z", [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27]),
        ("一万 东 🀄", [0, 27, 33]),
        ("一萬五饼三索九條", [0, 13, 20, 26]),
        ("红中发财白板東風", [33, 32, 31, 27]),
        ("1m, 2m 3m", [0, 1, 2]),
        ("5z6z7z", [31, 32, 33]),
        ("🀀🀁🀂🀃🀆🀅🀄", [27, 28, 29, 30, 31, 32, 33]),
        ("", []),
    ],
)
def test_parse_accepts_every_documented_notation(text: str, kinds: list[int]) -> None:
    """ASCII groups, Chinese names and variants, Unicode tiles, spaces/commas, all in written order."""
    assert hupai.parse(text) == kinds


@pytest.mark.parametrize(
    "text, offender, position",
    [
        ("12mx", "'x'", 3),
        ("12m3", "'3'", 3),
        ("0m", "0", 0),
        ("8z", "8", 0),
        ("m1", "'m'", 0),
        ("一", "'一'", 0),
        ("1m？", "'？'", 2),
        ("🀪", "'🀪'", 0),
    ],
)
def test_malformed_strings_name_character_and_position(text: str, offender: str, position: int) -> None:
    """InvalidHand names the offending character and its position in the string."""
    with pytest.raises(InvalidHand) as info:
        hupai.parse(text)
    assert offender in str(info.value) and f"position {position}" in str(info.value)


def test_more_than_four_of_a_kind_rejected() -> None:
    """to_counts refuses a fifth copy from strings, kind lists and counts vectors alike."""
    for hand in ("11111m", [0] * 5, np.array([5] + [0] * 33, dtype=np.uint8)):
        with pytest.raises(InvalidHand):
            hupai.to_counts(hand)


def test_kind_helpers() -> None:
    """suit_of / number_of / is_suited follow the kind numbering."""
    assert [tiles.suit_of(k) for k in (0, 8, 9, 17, 18, 26, 27, 33)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [tiles.number_of(k) for k in (0, 8, 9, 26, 27, 33)] == [1, 9, 1, 9, 1, 7]
    assert tiles.is_suited(26) and not tiles.is_suited(27)
    with pytest.raises(InvalidHand):
        tiles.kind_name(34)
    with pytest.raises(InvalidHand):
        tiles.kind_name(0, "klingon")
