"""Guangdong settlement, special wins and options (GD-3, GD-20 .. GD-30, options table).

P0 deals in every test, so with ``dealer_east`` a seat's wind is its seat number.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hupai import HupaiError, parse
from hupai.hand import Meld
from hupai.rules.guangdong.options import GuangdongOptions
from hupai.rules.guangdong.scoring import score_win
from hupai.rules.guangdong.settlement import drawn_hand_payments, share
from hupai.scoring import WinContext

DEFAULT = GuangdongOptions()
CHICKEN = "123m456p78s222s55p"   # + 9s: 鸡胡, 0 番, no extras on a discard


def meld(tiles: str, claimed_from: int | None = None, *, concealed: bool = False) -> Meld:
    kinds = tuple(sorted(parse(tiles)))
    kind = "chow" if len(set(kinds)) == 3 else ("kong" if len(kinds) == 4 else "pung")
    return Meld(kind, kinds, concealed=concealed, claimed_from=claimed_from)


def win(hand: str, tile: str, *, winner: int, discarder: int | None = None, melds: tuple[Meld, ...] = (),
        **flags: object) -> WinContext:
    return WinContext(winner=winner, win_tile=parse(tile)[0], concealed=tuple(parse(hand)), melds=melds,
                      discarder=discarder, seat_wind=winner, **flags)  # type: ignore[arg-type]


# --- GD-3 shares --------------------------------------------------------------------------------------------

def test_gd_3_share_is_base_times_two_to_the_fan():
    assert [share(fan, DEFAULT) for fan in range(7)] == [1, 2, 4, 8, 16, 32, 64]
    assert share(3, GuangdongOptions(base=5)) == 40


def test_gd_3_base_scales_payments():
    result = score_win(win(CHICKEN, "9s", winner=1, discarder=3), GuangdongOptions(base=10))
    assert result.payments == (0, 10, 0, -10) and result.details["share"] == 10


# --- GD-22 / GD-23 ------------------------------------------------------------------------------------------

def test_gd_22_self_draw_each_opponent_pays_one_share():
    result = score_win(win(CHICKEN, "9s", winner=2), DEFAULT)      # 鸡胡 + 自摸 = 1 番
    assert result.value == 1 and result.payments == (-2, -2, 6, -2)
    assert result.details["rule"] == "GD-22"


def test_gd_23_discard_one_discarder_pays_one_share():
    result = score_win(win(CHICKEN, "9s", winner=2, discarder=0), DEFAULT)
    assert result.payments == (-1, 0, 1, 0) and result.details["rule"] == "GD-23"


def test_gd_23_discard_all_three_discarder_pays_three_shares():
    result = score_win(win(CHICKEN, "9s", winner=2, discarder=0), GuangdongOptions(discard_pays="all_three"))
    assert result.payments == (-3, 0, 3, 0)


# --- GD-24 several winners on one discard -------------------------------------------------------------------

def test_gd_24_two_winners_each_settled_alone_without_minimum():
    first = score_win(win(CHICKEN, "9s", winner=1, discarder=0, winners_on_tile=2), DEFAULT)
    second = score_win(win("123m456m789p78s55s", "9s", winner=3, discarder=0, winners_on_tile=2), DEFAULT)
    assert first.value == 0 and second.value == 1                   # 鸡胡 and 平胡 keep their value
    total = tuple(a + b for a, b in zip(first.payments, second.payments, strict=True))
    assert total == (-3, 1, 0, 2)


def test_gd_24_three_winners_raised_to_the_minimum_discarder_pays_each():
    result = score_win(win(CHICKEN, "9s", winner=1, discarder=0, winners_on_tile=3), DEFAULT)
    assert result.pattern_names == ("ji_hu", "yi_pao_san_xiang") and result.value == 3
    assert result.payments == (-8, 8, 0, 0)
    result = score_win(win(CHICKEN, "9s", winner=1, discarder=0, winners_on_tile=3),
                       GuangdongOptions(discard_pays="all_three"))
    assert result.payments == (-24, 24, 0, 0)


# --- GD-20 special wins with a minimum ----------------------------------------------------------------------

def test_gd_20_gang_shang_kai_hua_minimum():
    concealed_kong = (meld("1111p", concealed=True),)
    context = win("123m456p78s55p", "9s", winner=1, melds=concealed_kong, kong_replacement=True)
    result = score_win(context, DEFAULT)
    assert result.pattern_names == ("ji_hu", "zi_mo", "gang_shang_kai_hua") and result.value == 3
    assert result.payments == (-8, 24, -8, -8)


def test_gd_20_hai_di_lao_yue_minimum_only_on_a_self_draw():
    result = score_win(win(CHICKEN, "9s", winner=1, last_tile=True), DEFAULT)
    assert "hai_di_lao_yue" in result.pattern_names and result.value == 3
    # A win on the last discard is an ordinary discard win: Guangdong has no 海底炮 minimum.
    result = score_win(win(CHICKEN, "9s", winner=1, discarder=3, last_tile=True), DEFAULT)
    assert result.pattern_names == ("ji_hu",) and result.value == 0


def test_gd_20_beyond_limit_hand_keeps_its_value():
    result = score_win(win("123m345m567m78m99m", "9m", winner=3, last_tile=True), DEFAULT)
    assert result.pattern_names == ("qing_yi_se", "hai_di_lao_yue") and result.value == 4
    assert result.payments == (-16, -16, -16, 48)


def test_gd_20_within_limit_hand_scores_exactly_cap_fan():
    # 碰碰胡 2 + 自摸 1 + 发 1 + 白 1 = 5, limited to 3, and the minimum does not lift it past the limit.
    kong = (meld("9999p", 2),)
    result = score_win(win("666z555z111m4s", "4s", winner=1, melds=kong, kong_replacement=True), DEFAULT)
    assert result.value == 3 and result.details["fan_before_limit"] == 5


# --- GD-21 flat 6 -------------------------------------------------------------------------------------------

def test_gd_21_tian_hu_replaces_the_hand_patterns():
    result = score_win(win("123m456p789s111z5s", "5s", winner=0, heavenly=True), DEFAULT)
    assert result.pattern_names == ("tian_hu",) and result.value == 6
    assert result.payments == (192, -64, -64, -64)


def test_gd_21_flags_must_match_the_win():
    with pytest.raises(HupaiError, match="天和"):
        score_win(win(CHICKEN, "9s", winner=1, heavenly=True), DEFAULT)
    with pytest.raises(HupaiError, match="地和"):
        score_win(win(CHICKEN, "9s", winner=1, discarder=2, earthly=True), DEFAULT)
    with pytest.raises(HupaiError, match="人和"):
        score_win(win(CHICKEN, "9s", winner=1, discarder=2, human=True), DEFAULT)


# --- GD-25 .. GD-29 liability -------------------------------------------------------------------------------

def test_gd_25_liable_pays_three_shares_alone():
    result = score_win(win(CHICKEN, "9s", winner=1, liable=2), DEFAULT)     # 鸡胡 + 自摸 = 1 番, share 2
    assert result.payments == (0, 6, -6, 0) and result.details["liable"] == 2


def test_gd_25_first_listed_case_decides_rob_kong_before_later_cases():
    # The engine also found a GD-28/29 liability (seat 0), but 抢杠 (GD-27) is listed first: the robbed pays.
    context = win("56m111p234s888s99p", "7m", winner=1, discarder=2, robbed_kong=True, liable=0)
    result = score_win(context, DEFAULT)
    assert result.payments == (0, 24, -24, 0) and result.details["rule"] == "GD-27"


def test_gd_26_gang_shang_kai_hua_bao_gang():
    kong = (meld("8888s", 3),)
    context = win("123m456p789p5p", "5p", winner=2, melds=kong, kong_replacement=True, liable=3)
    result = score_win(context, DEFAULT)
    assert result.pattern_names == ("ji_hu", "zi_mo", "gang_shang_kai_hua")
    assert result.payments == (0, 0, 24, -24) and result.details["rule"] == "GD-26"


def test_gd_27_qiang_gang_counts_as_zi_mo_robbed_player_liable_per_robber():
    first = score_win(win("56m111p234s888s99p", "7m", winner=1, discarder=2, robbed_kong=True,
                          winners_on_tile=2), DEFAULT)
    second = score_win(win("89m123p456p11s", "7m", winner=3, discarder=2, robbed_kong=True, winners_on_tile=2,
                           melds=(meld("222z", 0),)), DEFAULT)
    assert first.pattern_names == ("ji_hu", "zi_mo", "qiang_gang") and first.payments == (0, 24, -24, 0)
    # P3 (北 seat) with a 南 pung: 鸡胡 + 自摸 = 1, raised to 3, and again paid by P2 alone.
    assert second.pattern_names == ("ji_hu", "zi_mo", "qiang_gang") and second.payments == (0, 0, -24, 24)


def test_gd_28_special_bao_zi_mo_on_a_beyond_limit_hand():
    # X has 东 南 西 exposed, claimed 北 from P1: 大四喜 self-drawn, P1 liable for 3 x 64.
    melds = (meld("111z", 0), meld("222z", 2), meld("333z", 0), meld("444z", 1))
    result = score_win(win("5m", "5m", winner=3, melds=melds, liable=1), DEFAULT)
    assert result.pattern_names == ("da_si_xi",) and result.payments == (0, -192, 0, 192)


def test_gd_29_twelve_tiles_exposed_liability_only_on_self_draw():
    melds = (meld("222m", 0), meld("555p", 2), meld("888s", 0), meld("333m", 3))
    drawn = score_win(win("9p", "9p", winner=1, melds=melds, liable=3), DEFAULT)
    assert drawn.payments == (0, 24, 0, -24) and drawn.details["liable"] == 3
    # If X wins on a discard instead, GD-23 applies: a liable seat passed along is not used.
    discard = score_win(win("9p", "9p", winner=1, discarder=0, melds=melds, liable=3), DEFAULT)
    assert discard.value == 2 and discard.payments == (-4, 4, 0, 0) and discard.details["liable"] is None


# --- GD-30 --------------------------------------------------------------------------------------------------

def test_gd_30_drawn_hand_pays_nothing():
    assert drawn_hand_payments() == (0, 0, 0, 0)


# --- context checks -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"discarder": 1}, "cannot also be the discarder"),
    ({"liable": 1}, "liable for its own win"),
    ({"num_players": 3}, "4 players"),
    ({"winner": 4}, "not a seat"),
    ({"round_wind": 4}, "not a wind"),
    ({"concealed": tuple(parse("123m456p78s222s5p"))}, "13 tiles"),
    ({"robbed_kong": True}, "robbed player as discarder"),
])
def test_inconsistent_context_is_rejected(change, message):
    context = replace(win(CHICKEN, "9s", winner=1), **change)
    with pytest.raises(HupaiError, match=message):
        score_win(context, DEFAULT)


def test_kong_replacement_is_a_self_draw():
    with pytest.raises(HupaiError, match="杠上开花"):
        score_win(win(CHICKEN, "9s", winner=1, discarder=3, kong_replacement=True), DEFAULT)


def test_more_than_four_of_a_kind_is_rejected():
    with pytest.raises(HupaiError, match="more than four"):
        score_win(win("123m456p789s5p", "2s", winner=1, melds=(meld("2222s", 0),)), DEFAULT)


# --- options table ------------------------------------------------------------------------------------------

def test_options_defaults_and_to_dict():
    assert GuangdongOptions.from_mapping(None) == GuangdongOptions()
    assert GuangdongOptions.from_mapping({}).to_dict() == {
        "base": 1, "discard_pays": "one", "cap_fan": 3, "seat_wind": "dealer_east", "louhu": "same_kind",
        "wall_reserve": 0,
    }
    options = GuangdongOptions.from_mapping({"discard_pays": "all_three", "cap_fan": 5, "louhu": "any_tile"})
    assert GuangdongOptions.from_mapping(options.to_dict()) == options


@pytest.mark.parametrize("mapping, message", [
    ({"horses": 4}, "unknown Guangdong option 'horses'"),
    ({"base": 0}, "'base' must be >= 1"),
    ({"base": 1.5}, "'base' must be an int"),
    ({"base": True}, "'base' must be an int"),
    ({"cap_fan": -1}, "'cap_fan' must be >= 0"),
    ({"wall_reserve": -2}, "'wall_reserve' must be >= 0"),
    ({"discard_pays": "two"}, "'discard_pays' must be one of"),
    ({"seat_wind": "random"}, "'seat_wind' must be one of"),
    ({"louhu": None}, "'louhu' must be one of"),
])
def test_options_reject_bad_names_and_values(mapping, message):
    with pytest.raises(HupaiError, match=message):
        GuangdongOptions.from_mapping(mapping)


def test_gd_18_cap_fan_option():
    result = score_win(win("666z555z111m999p4s", "4s", winner=1), GuangdongOptions(cap_fan=4))
    assert result.value == 4 and result.payments == (-16, 48, -16, -16)


# --- invariants over random complete hands ------------------------------------------------------------------

def _random_win(rng: random.Random) -> WinContext | None:
    """A random complete hand (some melds declared), or None when the draw breaks the four-of-a-kind limit."""
    groups: list[tuple[str, int]] = []
    for _ in range(4):
        if rng.random() < 0.5:
            suit, number = rng.randrange(3), rng.randrange(7)
            groups.append(("chow", 9 * suit + number))
        else:
            groups.append(("pung", rng.randrange(34)))
    pair = rng.randrange(34)
    counts = Counter([pair, pair])
    for kind, first in groups:
        counts.update([first] * 3 if kind == "pung" else [first, first + 1, first + 2])
    if max(counts.values()) > 4:
        return None
    declared = rng.randrange(5)
    melds = []
    for kind, first in groups[:declared]:
        if kind == "chow":
            melds.append(Meld("chow", (first, first + 1, first + 2), claimed_from=rng.randrange(4)))
        elif counts[first] < 4 and rng.random() < 0.3:
            counts[first] += 1
            melds.append(Meld("kong", (first,) * 4, concealed=rng.random() < 0.5))
        else:
            melds.append(Meld("pung", (first,) * 3, claimed_from=rng.randrange(4)))
    concealed = [pair, pair]
    for kind, first in groups[declared:]:
        concealed += [first] * 3 if kind == "pung" else [first, first + 1, first + 2]
    win_tile = concealed.pop(rng.randrange(len(concealed)))
    winner = rng.randrange(4)
    discarder = rng.choice([None, *(seat for seat in range(4) if seat != winner)])
    return WinContext(winner=winner, win_tile=win_tile, concealed=tuple(concealed), melds=tuple(melds),
                      discarder=discarder, seat_wind=rng.randrange(4), round_wind=rng.randrange(4))


@pytest.mark.parametrize("options", [DEFAULT, GuangdongOptions(discard_pays="all_three", base=3)])
def test_gd_3_22_23_payments_of_random_wins_balance(options: GuangdongOptions):
    rng = random.Random(20261129)
    checked = 0
    while checked < 400:
        context = _random_win(rng)
        if context is None:
            continue
        checked += 1
        result = score_win(context, options)
        unit = share(result.value, options)
        assert sum(result.payments) == 0
        if context.discarder is None:
            assert result.payments[context.winner] == 3 * unit
        else:
            shares = 3 if options.discard_pays == "all_three" else 1
            assert result.payments[context.winner] == -result.payments[context.discarder] == shares * unit
        if result.details["beyond_limit"]:
            assert len(result.patterns) == 1 and result.value in (4, 5, 6)
        else:
            assert result.value == min(result.details["fan_before_limit"], options.cap_fan)
            # 自摸 never lowers a within-limit hand.
            if context.discarder is not None:
                drawn = score_win(replace(context, discarder=None), options)
                assert drawn.value >= result.value
