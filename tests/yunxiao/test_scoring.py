"""Yunxiao options (§12) and scoring (YX-38..YX-43).

The row tables, YX-39 selection, 三铺 liability (YX-40), ``multiplier_001`` (YX-41), settlement vectors
(YX-42/43) and how a :class:`WinContext` carries a Yunxiao win.
"""

from __future__ import annotations

import json

import pytest
from hupai.errors import HupaiError
from hupai.rules.yunxiao.options import YunxiaoOptions
from hupai.rules.yunxiao.scoring import MULTIPLIER_001, POINTS_000, score_win, select_row
from hupai.scoring import WinContext

from .helpers import kind, meld, score, tiles

MULTIPLIER = YunxiaoOptions(scoring="multiplier_001")


# --- options ------------------------------------------------------------------------------------------------

def test_options_defaults_reproduce_the_spec():
    options = YunxiaoOptions()
    assert options.to_dict() == {"base_points": 1, "scoring": "points_000", "wall_end_reserve": [34, 38, 40],
                                 "max_kongs": 3, "buda_loose": False, "louhu": "same_kind"}
    assert YunxiaoOptions.from_mapping(None) == options == YunxiaoOptions.from_mapping({})


def test_options_round_trip_through_json():
    options = YunxiaoOptions.from_mapping({"scoring": "multiplier_001", "wall_end_reserve": [30, 34, 36],
                                           "buda_loose": True, "louhu": "any_tile", "base_points": 5})
    assert options.wall_end_reserve == (30, 34, 36)
    assert YunxiaoOptions.from_mapping(json.loads(json.dumps(options.to_dict()))) == options


@pytest.mark.parametrize("mapping", [
    {"colour": "red"}, {"scoring": "points_001"}, {"base_points": 0}, {"base_points": True},
    {"base_points": 1.5}, {"wall_end_reserve": [34, 38]}, {"wall_end_reserve": "343840"},
    {"wall_end_reserve": [34, -1, 40]}, {"max_kongs": -1}, {"buda_loose": "yes"}, {"louhu": "never"},
])
def test_options_unknown_names_and_bad_values_raise(mapping):
    with pytest.raises(HupaiError):
        YunxiaoOptions.from_mapping(mapping)


def test_yx_12_reserve_after_kongs():
    options = YunxiaoOptions()
    assert [options.reserve_after(n) for n in range(4)] == [34, 38, 40, 40]


# --- YX-38: discard-type and self-draw-type -----------------------------------------------------------------

def test_yx_38_tables_match_the_spec():
    points = {(row.value.row, row.name): (row.value.discard, row.value.self_draw) for row in POINTS_000}
    assert points[(3, "san_pu_qing_yi_se")] == ((26, 1), None)
    assert points[(4, "qing_yi_se")] == ((10, 9), 10)
    assert points[(5, "yao_jiu")] == ((2, 2), 4)
    assert points[(6, "ping_hu")] == ((2, 1), 2)
    assert [row.value.self_draw for row in POINTS_000 if row.value.row == 9] == [4, 8, 16]
    assert [row.value.self_draw for row in POINTS_000 if row.value.row == 10] == [12, 16, 24, 12]
    assert all(row.value.discard is None or row.value.discard[0] == row.value.discard[1] for row in MULTIPLIER_001)


def test_yx_38_discard_type_win_discarder_pays_more():
    result = score("11z22z33z44z55s66s7s", "7s", gold="9p", winner=0, event="discard", discarder=2)
    assert result.pattern_names[0] == "dui_dui_hu"
    assert result.payments == (4, -1, -2, -1)


def test_yx_42_payments_only_to_the_winner_and_sum_to_zero():
    result = score("123m456m789p5s111z", "5s", gold="9s", winner=3, event="self_draw")
    assert result.payments == (-2, -2, -2, 6) and result.value == 6


def test_yx_43_result_reports_row_event_and_payments():
    result = score("123m456m789p5s111z", "5s", gold="9s", winner=1, event="discard", discarder=3)
    assert result.details["row"] == 6 and result.details["event"] == "discard"
    assert result.details["amounts"] == (2, 1) and result.details["options"]["scoring"] == "points_000"


# --- YX-39: no stacking, the largest total, earlier row on ties ---------------------------------------------

def test_yx_39_largest_total_wins():
    result = score("19m19p19s1234567z", "9m", gold="5m", winner=1, event="self_draw")
    assert result.details["row"] == 5 and result.value == 12  # 幺九 4 each beats 平胡-type 2


def test_yx_39_earlier_row_on_ties_tian_hu_over_qing_yi_se():
    result = score("123m456m789m111m9m", "9m", gold="5p", winner=0, event="tian_hu")
    assert "qing_yi_se" in result.pattern_names and result.details["row"] == 1
    assert result.payments == (30, -10, -10, -10)


def test_yx_39_earlier_row_on_ties_di_hu_over_qing_yi_se():
    result = score("123m456m789m111m9m", "9m", gold="5p", winner=1, event="di_hu", discarder=0)
    assert result.details["row"] == 2
    assert result.payments == (-10, 28, -9, -9)


def test_yx_39_di_hu_discarder_defaults_to_dealer():
    result = score("123m456m789p5s111z", "5s", gold="9s", winner=2, event="di_hu", dealer=1)
    assert result.payments == (-9, -10, 28, -9)


def test_yx_39_rob_kong_and_an_gang_count_as_zi_mo():
    # Row 7 (2 each) ties with row 6's self-draw column: the earlier row 6 is reported, the value is the same.
    robbed = score("12s456m789m111z55p", "3s", gold="9p", winner=3, event="rob_kong", discarder=2)
    assert robbed.details["row"] == 6 and robbed.value == 6
    # A 三金倒 hand with no other form has only row 7.
    assert score("19m479p258s127z3s3s", "3s", gold="3s", winner=2, event="san_jin_dao").details["row"] == 7


def test_yx_39_qing_yi_se_an_gang_is_a_qing_yi_se_zi_mo():
    result = score("123m456m789m9m", "9m", gold="5p", winner=1, event="an_gang",
                   melds=(meld("1111m", concealed=True),))
    assert result.details["row"] == 4 and result.payments == (-10, 30, -10, -10)


def test_yx_39_row_10_is_the_only_combination():
    result = score("123m456m789m9m", "9m", gold="5p", winner=1, event="ming_gang", melds=(meld("1111m"),))
    assert result.details["row_name"] == "qing_yi_se_ming_gang_hu"
    assert result.payments == (-12, 36, -12, -12)
    assert select_row(frozenset({"ping_hu", "dan_you_jin"}), False, POINTS_000).value.row == 9


def test_yx_39_no_applicable_row_raises():
    with pytest.raises(HupaiError):
        select_row(frozenset({"tian_hu"}), True, POINTS_000)


# --- YX-40: 三铺 liability ----------------------------------------------------------------------------------

def test_yx_40_san_pu_only_on_a_discard():
    melds = (meld("123m"), meld("456m"), meld("999m"))
    drawn = score("78m55m", "6m", gold="5p", winner=1, event="self_draw", melds=melds)
    assert drawn.details["row"] == 4 and drawn.payments == (-10, 30, -10, -10)


def test_yx_40_an_gang_is_not_a_pu():
    melds = (meld("1111m", concealed=True), meld("234m"), meld("567m"))
    result = score("78m99m", "9m", gold="5p", winner=1, event="discard", discarder=3, melds=melds)
    assert "san_pu" not in result.pattern_names and result.details["row"] == 4
    assert result.payments == (-9, 28, -9, -10)


def test_yx_40_three_exposed_including_ming_gang_and_bu_gang():
    melds = (meld("1111m"), meld("2222m"), meld("3333m"))
    result = score("456m9m", "9m", gold="5p", winner=2, event="discard", discarder=0, melds=melds)
    assert result.details["row"] == 3 and result.payments == (-26, -1, 28, -1)


# --- YX-41: multiplier_001 ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("concealed", "tile", "gold", "event", "melds", "level", "each"), [
    ("123m456m789p5s111z", "5s", "9s", "discard", (), None, 1),
    ("123m456m789p5s111z", "5s", "9s", "self_draw", (), None, 2),
    ("19m19p19s1234567z", "9m", "5m", "discard", (), None, 2),
    ("19m19p19s1234567z", "9m", "5m", "self_draw", (), None, 4),
    ("19m479p258s127z3s3s", "3s", "3s", "san_jin_dao", (), None, 2),
    ("123m456m789s55p34s", "7p", "7p", "rob_gold", (), None, 2),
    ("123m456m789p1z", "1z", "9p", "ming_gang", ("3333s",), None, 4),
    ("123m456m789p5s111z", "5s", "9s", "di_hu", (), None, 4),
    ("123m456m789p111z", "5p", "5p", "you_jin", (), 2, 8),
    ("123m456m789p111z", "5p", "5p", "you_jin", (), 3, 16),
    ("123m456m789m111m9m", "9m", "5p", "discard", (), None, 9),
    ("123m456m789m111m9m", "9m", "5p", "self_draw", (), None, 10),
    ("123m456m789m111m", "5m", "5m", "you_jin", (), 1, 12),
    ("123m456m789m9m", "9m", "5p", "ming_gang", ("1111m",), None, 12),
])
def test_yx_41_multiplier_every_opponent_pays_m(concealed, tile, gold, event, melds, level, each):
    discarder = 0 if event in ("discard", "di_hu") else None
    result = score(concealed, tile, gold=gold, winner=1, event=event, discarder=discarder,
                   melds=tuple(meld(m) for m in melds), you_level=level, options=MULTIPLIER)
    assert result.payments == (-each, 3 * each, -each, -each)


def test_yx_41_no_san_pu_liability():
    melds = (meld("123m"), meld("456m"), meld("999m"))
    result = score("78m55m", "6m", gold="5p", winner=1, event="discard", discarder=3, melds=melds,
                   options=MULTIPLIER)
    assert result.payments == (-9, 27, -9, -9)


def test_yx_3_base_points_scale_every_amount():
    result = score("123m456m789p111z", "5p", gold="5p", winner=2, event="you_jin", you_level=3,
                   options=YunxiaoOptions(base_points=3, scoring="multiplier_001"))
    assert result.payments == (-48, -48, 144, -48)


# --- how a WinContext carries a Yunxiao win -----------------------------------------------------------------

def _context(**fields) -> WinContext:
    base = {"winner": 1, "win_tile": kind("5s"), "concealed": tiles("123m456m789p5s111z"),
            "gold": kind("9s")}
    base.update(fields)
    return WinContext(**base)


def test_event_derived_from_flags():
    assert score_win(_context()).details["event"] == "self_draw"
    assert score_win(_context(discarder=3)).details["event"] == "discard"
    assert score_win(_context(robbed_kong=True, discarder=3)).details["event"] == "rob_kong"
    assert score_win(_context(earthly=True, discarder=0)).details["event"] == "di_hu"
    assert score_win(_context(winner=0, heavenly=True)).details["event"] == "tian_hu"
    kong = _context(concealed=tiles("123m456m5s111z"), melds=(meld("3333s"),), kong_replacement=True)
    assert score_win(kong).details["event"] == "ming_gang"
    hidden = _context(concealed=tiles("123m456m5s111z"), melds=(meld("3333s", concealed=True),),
                      kong_replacement=True)
    assert score_win(hidden).details["event"] == "an_gang"


def test_jokers_count_extra_golds_outside_concealed():
    # The gold 9s kept out of `concealed` and counted in `jokers`: the same hand as a listed gold.
    listed = score_win(_context(concealed=tiles("123m456m789p111z9s"), win_tile=kind("5s")))
    counted = score_win(_context(concealed=tiles("123m456m789p111z"), win_tile=kind("5s"), jokers=1))
    assert listed.payments == counted.payments == (-2, 6, -2, -2)


@pytest.mark.parametrize("fields", [
    {"gold": None},                                                   # no gold
    {"gold": 26, "event": "tsumo"},                                   # unknown event
    {"gold": 26, "event": "you_jin"},                                 # no level
    {"gold": 26, "event": "discard"},                                 # no discarder
    {"gold": 26, "event": "discard", "discarder": 1},                 # the winner discarding
    {"num_players": 3},                                               # YX-2
    {"win_tile": kind("6s")},                                         # not a winning hand
    {"gold": 26, "event": "san_jin_dao"},                             # no three golds
    {"kong_replacement": True},                                       # no kong declared
])
def test_invalid_wins_raise(fields):
    with pytest.raises(HupaiError):
        score_win(_context(**fields))


@pytest.mark.parametrize(("event", "winner", "discarder", "tile"), [
    ("tian_hu", 1, None, "5s"),      # YX-31: only the dealer
    ("di_hu", 0, None, "5s"),        # YX-31: not the dealer
    ("di_hu", 1, 2, "5s"),           # YX-31: on the dealer's discard
    ("rob_gold", 0, None, "9s"),     # YX-30: not the dealer
    ("rob_gold", 1, None, "5s"),     # YX-30: the indicator (a gold) is the winning tile
])
def test_yx_30_yx_31_event_seats(event, winner, discarder, tile):
    with pytest.raises(HupaiError):
        score_win(_context(winner=winner, discarder=discarder, win_tile=kind(tile),
                           gold=kind("9s"), event=event))


def test_you_jin_needs_the_you_shape():
    with pytest.raises(HupaiError):
        score("123m456m789p111z", "9s", gold="5p", winner=2, event="you_jin", you_level=1)


def test_yx_18_three_golds_cannot_win_on_a_discard():
    # Three golds held, the winning tile another kind (a discarded gold is never won on: YX-11).
    with pytest.raises(HupaiError):
        score("123m456m789p1z3s3s3s", "1z", gold="3s", winner=1, event="discard", discarder=0)
    assert score("123m456m789p1z3s3s3s", "1z", gold="3s", winner=1, event="di_hu", discarder=0).value == 28
    assert score("123m456m789p1z3s3s3s", "1z", gold="3s", winner=1, event="rob_kong", discarder=0).value == 6
