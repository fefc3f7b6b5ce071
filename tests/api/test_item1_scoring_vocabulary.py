"""Issue 13, item 1: one scoring vocabulary for every rule system (``hupai.score``, ``Rules.check``, ``NotAWin``,
the same ``ScoreResult`` fields everywhere)."""

from __future__ import annotations

import json
from dataclasses import fields, replace

import hupai
import pytest
from hupai import InvalidHand, NotAWin, WinContext, parse
from hupai.bots import GreedyBot
from hupai.game import Game, play
from hupai.hand import Meld
from hupai.rules import context_of, get
from hupai.scoring import CONTEXT_DEFAULTS


def T(text: str) -> int:
    (kind,) = parse(text)
    return kind


# -- seat and round wind derived unless given ------------------------------------------------------------------
@pytest.mark.rule("GD-E6")
def test_gd_e6_seat_wind_derived_from_the_dealer_when_left_out():
    hand = dict(win_tile=T("5s"), concealed=tuple(parse("111z123m456p789s5s")), discarder=2)
    east = hupai.score("guangdong", WinContext(winner=0, **hand))  # type: ignore[arg-type]
    south = hupai.score("guangdong", WinContext(winner=1, **hand))  # type: ignore[arg-type]
    assert east.value == 2 and east.payments == (4, 0, -4, 0)
    assert south.value == 1 and south.payments == (0, 2, -2, 0)  # round wind only: 2 points, not 4
    # Given explicitly, the wind is used as given (a server that seats players its own way).
    given = hupai.score("guangdong", WinContext(winner=1, seat_wind=0, **hand))  # type: ignore[arg-type]
    assert given.payments == (0, 4, -4, 0)


@pytest.mark.rule("GD-5")
def test_gd_5_fixed_seat_winds_follow_the_first_dealer():
    rules = get("guangdong", seat_wind="fixed")
    hand = dict(win_tile=T("5s"), concealed=tuple(parse("111z123m456p789s5s")), discarder=2)
    # P1 was the match's first dealer (东 for the whole match); P0 deals this hand.
    fixed = rules.score(WinContext(winner=1, dealer=0, first_dealer=1, **hand))  # type: ignore[arg-type]
    assert fixed.value == 2
    assert get("guangdong").score(WinContext(winner=1, dealer=0, first_dealer=1, **hand)).value == 1  # type: ignore[arg-type]


def test_the_engine_and_the_vocabulary_agree_on_seat_winds():
    for seed in range(6):
        game = Game("guangdong", seed=seed, dealer=seed % 4)
        play(game, [GreedyBot(seed * 4 + i) for i in range(4)])
        for win in game.result.wins:  # type: ignore[union-attr]
            derived = hupai.score("guangdong", WinContext(**{**win.context.__dict__, "seat_wind": None}))
            assert derived == win.score


# -- one set of event flags ------------------------------------------------------------------------------------
@pytest.mark.rule("YX-31")
@pytest.mark.rule("YX-E10")
def test_yx_31_human_is_yunxiaos_di_hu_and_scores_28():
    base = dict(winner=2, win_tile=T("5s"), concealed=tuple(parse("123m456m789p111z")) + (T("5s"),), discarder=0,
                gold=T("9s"))
    for flag in ("human", "earthly"):
        result = hupai.score("yunxiao", WinContext(**base, **{flag: True}))  # type: ignore[arg-type]
        assert result.payments == (-10, -9, 28, -9) and result.details["event"] == "di_hu"
    plain = hupai.score("yunxiao", WinContext(**base))  # type: ignore[arg-type]
    assert plain.details["event"] == "discard" and plain.value == 4


@pytest.mark.rule("GD-21")
@pytest.mark.rule("GD-E16")
def test_gd_21_human_on_the_dealers_first_discard():
    result = hupai.score("guangdong", "123m456p789s111z5s5s", winner=2, discarder=0, human=True)
    assert result.value == 6 and result.payments == (-64, 0, 64, 0)
    with pytest.raises(InvalidHand, match="人和"):
        hupai.score("guangdong", "123m456p789s111z5s5s", winner=2, discarder=1, human=True)


def test_a_flag_naming_another_event_than_the_event_is_refused():
    context = context_of("123m456m789p111z5s", win_tile="5s", winner=2, discarder=0, gold="9s", earthly=True,
                         event="discard")
    with pytest.raises(InvalidHand, match="contradicts"):
        hupai.score("yunxiao", context)


# -- a field a system does not use is refused unless at its default -----------------------------------------
@pytest.mark.parametrize(("system", "field", "value"), [
    ("yunxiao", "seat_wind", 1), ("yunxiao", "round_wind", 2), ("yunxiao", "last_tile", True),
    ("yunxiao", "liable", 3), ("yunxiao", "declared_ready", True),
    ("guangdong", "gold", 3), ("guangdong", "jokers", 1), ("guangdong", "you_level", 2),
    ("guangdong", "declared_ready", True), ("guangdong", "event", "you_jin"),
    ("kawuxing", "heavenly", True), ("kawuxing", "human", True), ("kawuxing", "seat_wind", 0),
    ("kawuxing", "gold", 0),
])
def test_an_unused_field_away_from_its_default_is_refused_by_name(system, field, value):
    context = WinContext(winner=1, win_tile=T("5s"), concealed=tuple(parse("123m456p789p111z5s")), discarder=0,
                         num_players=3 if system == "kawuxing" else 4,
                         gold=T("9s") if system == "yunxiao" else None)
    context = WinContext(**{**context.__dict__, field: value})
    with pytest.raises(InvalidHand, match=f"WinContext.{field}"):
        hupai.score(system, context)


def test_every_system_declares_the_fields_it_reads():
    for name in hupai.rules.names():
        used = get(name).context_fields
        assert used is not None and used <= {f.name for f in fields(WinContext)}, name


# -- NotAWin, InvalidHand and check() ----------------------------------------------------------------------------
@pytest.mark.parametrize(("system", "hand", "facts"), [
    ("guangdong", "123m456p789s11z2z3z4z", {"discarder": 2}),
    ("yunxiao", "123m456m789p11z2z3z4z", {"discarder": 2, "gold": "9s"}),
    ("kawuxing", "123s456p789p55z6z7z1p", {"discarder": 2, "num_players": 3}),
])
def test_a_hand_that_is_not_complete_is_not_a_win(system, hand, facts):
    rules = get(system)
    context = context_of(hand, **facts)
    with pytest.raises(NotAWin, match="not a winning hand"):
        rules.check(context)
    with pytest.raises(NotAWin):
        rules.score(context)
    assert issubclass(NotAWin, hupai.HupaiError) and not issubclass(NotAWin, InvalidHand)


def test_check_returns_quietly_for_a_legal_win():
    rules = get("guangdong")
    assert rules.check(context_of("111z123m456p789s5s5s", winner=1, discarder=2)) is None


def test_wai_huzi_raises_the_same_not_a_win():
    from hupai.rules import waihuzi

    assert waihuzi.NotAWin is NotAWin


@pytest.mark.parametrize("facts", [
    {"winner": 7}, {"discarder": 1}, {"num_players": 3}, {"liable": 1},
    {"heavenly": True},  # P1 is not the dealer
])
def test_malformed_contexts_raise_invalid_hand(facts):
    context = context_of("111z123m456p789s5s5s", **{"winner": 1, "discarder": 2, **facts})
    with pytest.raises(InvalidHand):
        get("guangdong").check(context)


@pytest.mark.rule("YX-11")
def test_yx_11_no_win_on_a_discarded_gold():
    context = context_of("123m456m789p111z5s", win_tile="9s", winner=2, discarder=3, gold="9s")
    with pytest.raises(NotAWin, match="YX-11"):
        hupai.score("yunxiao", context)
    # A drawn gold is a self-draw: that is a win.
    drawn = context_of("123m456m789p111z5s", win_tile="9s", winner=2, gold="9s")
    assert hupai.score("yunxiao", drawn).value == 6


def test_score_takes_a_name_or_a_rules_object():
    context = context_of("111z123m456p789s5s5s", winner=1, discarder=2)
    assert hupai.score("guangdong", context) == hupai.score(get("guangdong"), context)
    with pytest.raises(hupai.HupaiError, match="unknown rule system"):
        hupai.score("mahjong", context)


# -- the same ScoreResult fields everywhere ---------------------------------------------------------------------
def _one_of_each() -> dict[str, hupai.ScoreResult]:
    return {
        "guangdong": hupai.score("guangdong", "111z123m456p789s5s5s", winner=1, discarder=2),
        "yunxiao": hupai.score("yunxiao", "123m456m789p111z5s5s", winner=1, discarder=2, gold="9s"),
        "kawuxing": hupai.score("kawuxing", "123p456p789p234p5p5p", winner=1, discarder=2, num_players=3),
    }


def test_score_results_have_the_same_fields_with_rule_ids():
    for system, result in _one_of_each().items():
        assert result.patterns and sum(result.payments) == 0 and result.reading, system
        prefix = {"guangdong": "GD-", "yunxiao": "YX-", "kawuxing": "KW-"}[system]
        for pattern in result.patterns:
            assert pattern.chinese and pattern.rule.startswith(prefix), (system, pattern)
        data = result.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert set(data) == {"patterns", "value", "payments", "reading", "details"}
        assert set(data["patterns"][0]) == {"name", "chinese", "value", "rule"}


@pytest.mark.rule("YX-33")
def test_yx_33_the_row_is_named_by_the_pattern_that_selected_it():
    # YX-E13's seven pairs, the gold 8p pairing 6s: row 6 (平胡/对对胡/不搭) read as 对对胡.
    result = hupai.score("yunxiao", "1133m2299p55s77z8p6s", winner=1, gold="8p")
    assert result.details["row"] == 6 and result.details["row_name"] == "dui_dui_hu"
    assert "dui_dui_hu" in result.reading
    plain = hupai.score("yunxiao", "123m456m789p111z5s5s", winner=1, gold="9s")
    assert plain.details["row_name"] == "ping_hu"


@pytest.mark.rule("YX-43")
def test_yx_43_result_to_json_keeps_the_row_and_the_event():
    found = 0
    for seed in range(20):
        game = Game("yunxiao", seed=seed)
        play(game, [GreedyBot(seed * 4 + i) for i in range(4)])
        result = game.result
        assert result is not None
        data = json.loads(json.dumps(result.to_dict()))
        for win, shown in zip(result.wins, data["wins"], strict=True):
            details = shown["score"]["details"]
            assert details["row"] == win.score.details["row"] and details["event"] == win.score.details["event"]
            assert shown["score"]["reading"].startswith("points_000 row ")
            found += 1
        assert "score" not in json.dumps(game.log()["result"])  # the log keeps format 1
    assert found >= 5


def test_yunxiao_typed_fields_replace_extras():
    assert "extras" not in CONTEXT_DEFAULTS
    you = WinContext(winner=2, win_tile=T("5p"), concealed=tuple(parse("123m456m789p111z")), gold=T("5p"),
                     event="you_jin", you_level=1)
    assert hupai.score("yunxiao", you).details["row_name"] == "dan_you_jin"
    with pytest.raises(InvalidHand, match="you_level"):
        hupai.score("yunxiao", WinContext(**{**you.__dict__, "you_level": 0}))
    with pytest.raises(InvalidHand, match="you_level"):
        hupai.score("yunxiao", WinContext(**{**you.__dict__, "event": None}))


def test_kongs_written_in_notation_score_as_melds():
    result = hupai.score("guangdong", "123m456p789s5s [1111z] 5s", winner=1, discarder=2)
    context = context_of("123m456p789s5s [1111z] 5s", winner=1, discarder=2)
    assert context.melds == (Meld("kong", (27, 27, 27, 27)),)
    assert result.value == 1


# -- num_players left out is the rule system's own table size ------------------------------------------------
@pytest.mark.rule("KW-2", "WH-3", "GD-E6")
def test_num_players_left_out_is_the_systems_own_and_a_wrong_one_is_refused():
    """``WinContext.num_players`` defaults to ``None``: each system reads it as its own (4, 4, 3, 3), so a 3-player
    system scores a context that does not name it; an explicit wrong count is still refused."""
    assert WinContext(winner=0, win_tile=0, concealed=()).num_players is None
    four = hupai.score("guangdong", "111z123m456p789s55s", winner=1, discarder=2)
    assert four.payments == (0, 2, -2, 0)  # GD-E6
    three = hupai.score("kawuxing", "123p456p789p46s55s5s", win_tile="5s", winner=0, discarder=1)
    assert three.payments == hupai.score("kawuxing", "123p456p789p46s55s5s", win_tile="5s", winner=0, discarder=1,
                                         num_players=3).payments == (2, -2, 0)
    with pytest.raises(InvalidHand, match="three players"):
        hupai.score("kawuxing", "123p456p789p46s55s5s", win_tile="5s", winner=0, discarder=1, num_players=4)
    with pytest.raises(InvalidHand, match="num_players"):
        hupai.score("guangdong", "111z123m456p789s55s", winner=1, discarder=2, num_players=3)
    from hupai import zipai

    # WH-E2's win (x1 on seat 2's discard), with num_players left out
    melds = tuple(zipai.parse_groups("[溜 d9d9d9d9] [歪 x3x3x3] [碰 d5d5d5] [飘 x6x6x6x6]"))
    wai = WinContext(winner=1, win_tile=zipai.parse("x1")[0], concealed=tuple(zipai.parse("x8 x8 x8 d2 d7 d10 x1")),
                     melds=melds, discarder=2)
    assert hupai.score("waihuzi", wai).payments == (-480, 960, -480)
    with pytest.raises(hupai.HupaiError, match="num_players must be 3"):
        hupai.score("waihuzi", replace(wai, num_players=4))
