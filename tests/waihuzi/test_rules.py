"""The Wai Huzi rule object: registry, options (WH-5, WH-32, WH-35, WH-37, WH-41, WH-43, §11), its cards (WH-1..3),
dealer rotation (WH-6, WH-46), and what ``check`` / ``score`` refuse (WH-28, WH-32, malformed contexts)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import hupai
import pytest
from hupai import zipai
from hupai.errors import HupaiError, InvalidHand
from hupai.hand import Meld
from hupai.rules import Rules
from hupai.rules.waihuzi import NotAWin, WaihuziOptions, WaihuziRules
from hupai.scoring import WinContext

E3_HAND = tuple(zipai.parse("x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"))
D3 = zipai.parse("d3")[0]


def rules(**options: Any) -> WaihuziRules:
    found = hupai.rules.get("waihuzi", **options)
    assert isinstance(found, WaihuziRules)
    return found


def win(**fields: Any) -> WinContext:
    base: dict[str, Any] = {"winner": 1, "win_tile": D3, "concealed": E3_HAND, "discarder": 2, "num_players": 3}
    return WinContext(**{**base, **fields})


# ------------------------------------------------------------------ the object and its options


@pytest.mark.rule("WH-1", "WH-2", "WH-3")
def test_wh_1_the_rule_object_and_its_80_cards() -> None:
    found = rules()
    assert isinstance(found, Rules) and "waihuzi" in hupai.rules.names()
    assert (found.name, found.family, found.num_players) == ("waihuzi", "zipai", 3)
    assert Counter(found.tiles()) == {kind: 4 for kind in range(20)}
    assert sum(1 for kind in found.tiles() if zipai.is_red(kind)) == 24


def test_options_defaults_and_round_trip() -> None:
    found = rules()
    assert found.options_dict() == {"min_huxi": 5, "cap": None, "xingxingxi": "loose", "daxiaozihu": True,
                                    "haidilao": True, "extra_mingtang": False, "shen": None}
    assert rules(**found.options_dict()).options == found.options
    changed = rules(min_huxi=7, cap=64, xingxingxi="strict", daxiaozihu=False, haidilao=False, extra_mingtang=True,
                    shen="even")
    assert rules(**changed.options_dict()).options_dict() == changed.options_dict()
    assert {info.name: info.rule for info in WaihuziOptions.describe()} == {
        "min_huxi": "WH-32", "cap": "WH-43", "xingxingxi": "WH-37", "daxiaozihu": "WH-35", "haidilao": "WH-35",
        "extra_mingtang": "WH-41", "shen": "WH-5", "shen_shown": "WH-5", "dandiao": "WH-30", "yidianhong": "WH-35",
        "dihu": "WH-35", "shenyao": "WH-39", "sishou": "WH-27"}


@pytest.mark.rule("WH-5", "WH-32", "WH-35", "WH-37", "WH-41", "WH-43")
@pytest.mark.parametrize(("name", "value"), [
    ("min_huxi", -1), ("min_huxi", True), ("min_huxi", "5"), ("min_huxi", 5.0), ("cap", 0), ("cap", "none"),
    ("xingxingxi", "lenient"), ("xingxingxi", None), ("daxiaozihu", 1), ("haidilao", "yes"),
    ("extra_mingtang", None), ("shen", "single"), ("shen", 1), ("colour", True),
])
def test_options_are_validated(name: str, value: Any) -> None:
    with pytest.raises(HupaiError, match=name):
        hupai.rules.get("waihuzi", **{name: value})


def test_an_option_set_checked_once_is_shared_and_a_lookalike_still_refused() -> None:
    """Rules made again from the same option mapping (a match fixing its 神, every one-hand episode's reset) share
    the options checked the first time; a value equal to an accepted one but of another type (True for 1, 5.0 for
    5) is still refused, and an unhashable value too."""
    from hupai.rules.waihuzi import rules as rules_module

    first = WaihuziRules({"min_huxi": 1, "shen": "odd"})
    again = WaihuziRules({"min_huxi": 1, "shen": "odd"})
    assert again.options is first.options and again.options_dict() == first.options_dict() == {
        **WaihuziRules().options_dict(), "min_huxi": 1, "shen": "odd"}
    assert again.options_dict() is not first.options_dict()  # each caller its own copy
    assert not again.house_wins and WaihuziRules({"dandiao": "plus5"}).house_wins
    assert WaihuziRules({"dandiao": "plus5"}).house_wins  # (from the memo)
    for bad in ({"min_huxi": True, "shen": "odd"}, {"min_huxi": 1.0, "shen": "odd"}, {"min_huxi": [1]}):
        with pytest.raises(HupaiError, match="min_huxi"):
            WaihuziRules(bad)
    for count in range(2 * rules_module._CHECKED_SIZE):  # bounded
        WaihuziRules({"min_huxi": count})
    assert len(rules_module._CHECKED) <= rules_module._CHECKED_SIZE


@pytest.mark.rule("WH-6", "WH-46")
def test_wh_6_the_winner_deals_and_after_huang_zhuang_the_haidi_drawer() -> None:
    assert WaihuziRules.dealer_after(2, haidi_drawer=1) == 2
    assert WaihuziRules.dealer_after(None, haidi_drawer=1) == 1
    assert rules().next_round(0, 0, 1, 0) == (0, False)  # no winds or rounds (§10)


@pytest.mark.rule("WH-17")
def test_wh_17_claim_classes() -> None:
    from hupai.rules.waihuzi import PRIORITY
    assert PRIORITY["liu"] == PRIORITY["piao"] == PRIORITY["wai"] > PRIORITY["win"] > PRIORITY["peng"] > \
        PRIORITY["chi"]
    assert rules().multiple_winners is False


# ------------------------------------------------------------------ check and score refuse


@pytest.mark.rule("WH-28")
def test_wh_28_cards_that_do_not_split_are_not_a_win() -> None:
    context = win(win_tile=zipai.parse("x4")[0])
    with pytest.raises(NotAWin, match="does not split") as caught:
        rules().check(context)
    assert isinstance(caught.value, HupaiError)
    with pytest.raises(NotAWin, match="does not split"):
        hupai.score("waihuzi", context)


@pytest.mark.rule("WH-32")
def test_wh_32_below_min_huxi_is_not_a_win() -> None:
    rules().check(win())
    with pytest.raises(NotAWin, match="at most 5 息, below min_huxi 6"):
        rules(min_huxi=6).check(win())
    with pytest.raises(NotAWin, match="below min_huxi 5000"):
        rules(min_huxi=5000).check(win())
    assert rules(min_huxi=0).score(win()).value == 5


@pytest.mark.rule("WH-32")
def test_wh_32_never_on_ones_own_discard() -> None:
    with pytest.raises(HupaiError, match="own discard"):
        rules().check(win(discarder=1))


@pytest.mark.parametrize(("name", "value"), [
    ("seat_wind", 1), ("round_wind", 2), ("kong_replacement", True), ("robbed_kong", True), ("human", True),
    ("winners_on_tile", 2), ("liable", 0), ("jokers", 1), ("declared_ready", True), ("discard_after_kong", True),
    ("gold", 3), ("event", "you_jin"), ("you_level", 1), ("first_dealer", 1),
])
def test_fields_wai_huzi_does_not_use_must_stay_at_their_default(name: str, value: Any) -> None:
    with pytest.raises(HupaiError, match=f"WinContext.{name}"):
        rules().check(win(**{name: value}))
    with pytest.raises(HupaiError, match=f"WinContext.{name}"):
        hupai.score("waihuzi", win(**{name: value}))


@pytest.mark.parametrize(("fields", "message"), [
    ({"winner": 3}, "winner must be a seat 0..2"), ({"winner": -1}, "winner must be a seat"),
    ({"winner": True}, "winner must be a seat"), ({"discarder": 3}, "discarder must be a seat 0..2 or None"),
    ({"dealer": 5}, "dealer must be a seat"), ({"num_players": 4}, "num_players must be 3"),
])
def test_seats_outside_0_to_2_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(HupaiError, match=message):
        rules().check(win(**fields))


@pytest.mark.parametrize(("fields", "message"), [
    ({"win_tile": 20}, "win_tile must be a card kind 0..19"),
    ({"win_tile": "d3"}, "win_tile must be a card kind"),
    ({"concealed": (*E3_HAND[:-1], 25)}, r"concealed\[18\] must be a card kind"),
    ({"concealed": E3_HAND[:-1]}, "20 cards plus one per 4-card group"),
    ({"concealed": "x1 x1"}, "concealed must be a tuple"),
    ({"concealed": (0, 0, 0, 0, 0, *E3_HAND[5:])}, "5 copies of x1"),
    ({"melds": (Meld("pung", (0, 0, 0)),)}, r"melds\[0\] is .* not a hupai.zipai.Declared"),
    ({"melds": (zipai.Declared(zipai.PartType.PENG, (0, 0), 0),)}, r"melds\[0\]: a 碰 holds 3 cards"),
    ({"melds": (zipai.Declared(zipai.PartType.KAN, (0, 0, 0), None),)}, r"melds\[0\]: .* not a declared group"),
])
def test_malformed_cards_and_groups_are_invalid_hands(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        rules().check(win(**fields))


def test_a_declared_group_the_core_refuses_names_it() -> None:
    bad_chow = zipai.Declared(zipai.PartType.CHI, (0, 2, 4), 0)  # not a run
    hand = tuple(zipai.parse("x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6"))
    with pytest.raises(InvalidHand):
        rules().check(win(concealed=hand, melds=(bad_chow,)))


@pytest.mark.rule("WH-36", "WH-38", "WH-40")
@pytest.mark.parametrize(("fields", "message"), [
    ({"heavenly": True, "winner": 1}, "天胡"), ({"heavenly": True, "winner": 0, "discarder": 2}, "天胡"),
    ({"heavenly": True, "winner": 0, "discarder": None, "earthly": True}, "not earthly"),
    ({"earthly": True, "discarder": 2}, "地胡"), ({"earthly": True, "winner": 0, "discarder": 1}, "地胡"),
    ({"heavenly": 1, "winner": 0, "discarder": None}, "heavenly must be a bool"),
])
def test_contradicting_facts_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(HupaiError, match=message):
        rules().check(win(**fields))


@pytest.mark.rule("WH-5", "WH-39")
def test_wh_39_shen_facts_are_checked() -> None:
    with pytest.raises(HupaiError, match="shen must be None, 'odd' or 'even'"):
        rules().check(win(shen="single"))
    with pytest.raises(HupaiError, match="needs the session 神"):
        rules().check(win(shen_card=3))
    with pytest.raises(InvalidHand, match="shen_card must be a card kind"):
        rules().check(win(shen="odd", shen_card=20))
    with pytest.raises(HupaiError, match="contradicts the shen option"):
        rules(shen="odd").check(win(shen="even"))
    rules(shen="odd").check(win(shen="odd", shen_card=3))


def test_score_refuses_what_is_not_a_win_context() -> None:
    with pytest.raises(HupaiError, match="WinContext"):
        rules().score("x1 x2")  # type: ignore[arg-type]


@pytest.mark.rule("WH-45", "WH-46")
def test_wh_46_a_drawn_hand_pays_nothing() -> None:
    """黄庄: no 荒庄 payments (the base hook, not overridden), and the 海底 drawer deals next (WH-6 above)."""
    assert WaihuziRules.on_drawn is Rules.on_drawn
    assert not WaihuziRules.capabilities.on_drawn
