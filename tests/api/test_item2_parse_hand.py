"""Issue 13, item 2: notation for whole hands (``hupai.parse_hand``), used by ``hupai analyze`` and ``hupai.score``."""

from __future__ import annotations

import hupai
import pytest
from hupai import InvalidHand, Meld, parse, parse_hand
from hupai.cli import main
from hupai.hand import implied_melds
from hypothesis import given, settings
from hypothesis import strategies as st


def test_parse_hand_reads_concealed_tiles_and_melds():
    hand = parse_hand("123m [456p] (7777z) 5s")
    assert hand.concealed == (0, 1, 2, 22)
    assert hand.melds == (Meld("chow", (12, 13, 14)), Meld("kong", (33,) * 4, concealed=True))
    assert hand.implied == 1 and hand.meld_count == 3 and hand.size == 13
    exposed = parse_hand("123m456p55s [777z] [1111s]")
    assert exposed.melds == (Meld("pung", (33,) * 3), Meld("kong", (18,) * 4))
    assert not exposed.melds[1].concealed and exposed.implied == 0 and exposed.size == 14
    assert str(parse_hand("5s (7777z) 123m [456p]")) == "123m5s (7777z) [456p]"


@pytest.mark.parametrize(("text", "implied"), [
    ("123m456p789s1122z", 0), ("123m456p789s11z2z3z4z", 0), ("123m456p789s1z", 1), ("123m456p789s11z", 1),
    ("123m456p1z", 2), ("55z", 4), ("5z", 4),
])
def test_unwritten_melds_are_inferred_from_the_size(text, implied):
    assert parse_hand(text).implied == implied
    assert implied_melds(len(parse(text))) == implied


@pytest.mark.parametrize(("text", "why"), [
    ("123m [456p", "never closed"), ("123m 456p]", "closes nothing"), ("[12m]", "3 tiles"),
    ("[124m]", "not a run"), ("(777z)", "concealed kong"), ("[1234m]", "identical"),
    ("123m456p789s11z22z33z", "at most"), ("[123m] [123m] [123m] [123m] [123m]", "at most"),
    ("123x", "position"), ("", "no hand size"),
])
def test_malformed_hands_raise_invalid_hand(text, why):
    with pytest.raises(InvalidHand, match=why):
        parse_hand(text)


def test_parse_hand_refuses_a_non_string():
    with pytest.raises(InvalidHand):
        parse_hand(123)  # type: ignore[arg-type]


_MELDS = st.one_of(
    st.integers(0, 33).map(lambda k: Meld("pung", (k,) * 3)),
    st.integers(0, 33).map(lambda k: Meld("kong", (k,) * 4)),
    st.integers(0, 33).map(lambda k: Meld("kong", (k,) * 4, concealed=True)),
    st.sampled_from([s * 9 + n for s in range(3) for n in range(7)]).map(lambda k: Meld("chow", (k, k + 1, k + 2))),
)


@given(melds=st.lists(_MELDS, max_size=4), data=st.data())
@settings(max_examples=200, deadline=None)
def test_parse_hand_round_trips(melds, data):
    size = data.draw(st.sampled_from([13, 14]))
    concealed = data.draw(st.lists(st.integers(0, 33), min_size=size - 3 * len(melds),
                                   max_size=size - 3 * len(melds)))
    text = " ".join([hupai.format_tiles(concealed)] * bool(concealed)
                    + [f"({hupai.format_tiles(list(m.tiles))})" if m.concealed else str(m) for m in melds])
    hand = parse_hand(text)
    assert sorted(hand.concealed) == sorted(concealed) and hand.melds == tuple(melds) and hand.implied == 0
    again = parse_hand(str(hand))
    assert again == parse_hand(str(again)) and sorted(again.concealed) == sorted(concealed)
    assert again.melds == tuple(melds)


@given(st.text(alphabet="123456789mpsz[]() ,", max_size=40))
@settings(max_examples=300, deadline=None)
def test_parse_hand_never_crashes(text):
    try:
        hand = parse_hand(text)
    except InvalidHand:
        return
    assert hand.size in (13, 14) or hand.implied


# -- used by analyze and score ----------------------------------------------------------------------------------
def test_analyze_reads_melds_in_brackets(capsys):
    assert main(["analyze", "123m [456p] (7777z) 5s"]) == 0
    out = capsys.readouterr().out
    assert "3 exposed melds" in out and "waits     5s" in out
    assert main(["analyze", "123m456p789s11z"]) == 0  # 11 tiles: one meld inferred
    assert "1 exposed melds" in capsys.readouterr().out
    assert main(["analyze", "123m456p789s1z", "--melds", "1"]) == 0
    assert main(["analyze", "123m [456p"]) == 2
    assert "never closed" in capsys.readouterr().err


def test_score_reads_a_hand_in_notation():
    # GD-E9 小三元: P1 holds 555z666z77z123m45p, P3 discards 6p.
    result = hupai.score("guangdong", "555z666z77z123m45p6p", winner=1, discarder=3)
    assert result.value == 5 and result.payments == (0, 32, 0, -32)
    named = hupai.score("guangdong", "555z666z77z123m45p", win_tile="6p", winner=1, discarder=3)
    assert named == result
    with pytest.raises(InvalidHand, match="win_tile"):
        hupai.score("guangdong", "555z666z77z123m45p", winner=1, discarder=3)
    with pytest.raises(InvalidHand, match="brackets"):
        hupai.score("guangdong", "555z666z77z45p6p", winner=1, discarder=3)
    with pytest.raises(InvalidHand, match="unknown WinContext field"):
        hupai.score("guangdong", "555z666z77z123m45p6p", winner=1, discarder=3, seat=2)
