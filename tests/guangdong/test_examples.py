"""The spec's worked scoring examples GD-E1 .. GD-E17 (guangdong.md §11): patterns, exact per-seat payments.

P0 deals, so with ``dealer_east`` the seats are P0 东, P1 南, P2 西, P3 北; the round is 东 unless stated;
base 1, ``discard_pays = "one"`` unless stated. GD-E18/E19 are game-flow examples (rotation, 漏胡), tested
with the engine. The flags and ``liable`` are passed as the engine would pass them.
"""

from __future__ import annotations

from hupai import parse
from hupai.hand import Meld
from hupai.rules.guangdong.options import GuangdongOptions
from hupai.rules.guangdong.scoring import score_win
from hupai.scoring import ScoreResult, WinContext

DEFAULT = GuangdongOptions()
ALL_THREE = GuangdongOptions(discard_pays="all_three")


def score(hand: str, tile: str, *, winner: int, discarder: int | None = None, melds: tuple[Meld, ...] = (),
          options: GuangdongOptions = DEFAULT, dealer: int = 0, round_wind: int = 0,
          **flags: object) -> ScoreResult:
    """Score one win; the seat wind follows GD-5 ``dealer_east``."""
    context = WinContext(winner=winner, win_tile=parse(tile)[0], concealed=tuple(parse(hand)), melds=melds,
                         discarder=discarder, dealer=dealer, seat_wind=(winner - dealer) % 4,
                         round_wind=round_wind, **flags)  # type: ignore[arg-type]
    result = score_win(context, options)
    assert sum(result.payments) == 0
    return result


def pung(tiles: str, claimed_from: int) -> Meld:
    return Meld("pung", tuple(parse(tiles)), claimed_from=claimed_from)


def test_gd_e1_ji_hu_on_a_discard():
    result = score("123m456p78s222s55p", "9s", winner=1, discarder=3)
    assert result.pattern_names == ("ji_hu",) and result.value == 0
    assert result.payments == (0, 1, 0, -1)


def test_gd_e2_ji_hu_self_draw_with_a_dragon_pung():
    result = score("123m456p789s777z5p", "5p", winner=1)
    assert result.pattern_names == ("ji_hu", "zi_mo", "hong_zhong") and result.value == 2
    assert result.payments == (-4, 12, -4, -4)


def test_gd_e3_ping_hu_self_draw():
    result = score("123m456m789p23s55s", "4s", winner=2)
    assert result.pattern_names == ("ping_hu", "zi_mo") and result.value == 2
    assert result.payments == (-4, -4, 12, -4)


def test_gd_e4_limit():
    result = score("666z555z111m999p4s", "4s", winner=1)
    assert result.pattern_names == ("peng_peng_hu", "zi_mo", "bai_ban", "fa_cai")
    assert result.details["fan_before_limit"] == 5 and result.value == 3
    assert result.payments == (-8, 24, -8, -8)


def test_gd_e5_ping_hu_plus_hun_yi_se():
    result = score("123m456m789m23m11z", "4m", winner=1, discarder=2)
    assert result.pattern_names == ("ping_hu", "hun_yi_se") and result.value == 3
    assert result.payments == (0, 8, -8, 0)


def test_gd_e6_seat_wind_equal_to_round_wind():
    result = score("111z123m456p789s5s", "5s", winner=0, discarder=2)
    assert result.pattern_names == ("ji_hu", "men_feng", "quan_feng") and result.value == 2
    assert result.payments == (4, 0, -4, 0)
    # P1 (南 seat) with the same hand gets only the round wind: 1 番 = 2 points.
    result = score("111z123m456p789s5s", "5s", winner=1, discarder=2)
    assert result.pattern_names == ("ji_hu", "quan_feng") and result.payments == (0, 2, -2, 0)


def test_gd_e7_qing_yi_se_takes_no_zi_mo():
    result = score("123m345m567m78m99m", "9m", winner=3)
    assert result.pattern_names == ("qing_yi_se",) and result.value == 4
    assert result.payments == (-16, -16, -16, 48)


def test_gd_e8_hun_peng_takes_no_extras():
    result = score("111m333m777m222z5z", "5z", winner=2)
    assert result.pattern_names == ("hun_peng",) and result.value == 4
    assert result.payments == (-16, -16, 48, -16)


def test_gd_e9_xiao_san_yuan():
    result = score("555z666z77z123m45p", "6p", winner=1, discarder=3)
    assert result.pattern_names == ("xiao_san_yuan",) and result.value == 5
    assert result.payments == (0, 32, 0, -32)


def test_gd_e10_shi_san_yao():
    result = score("19m19p19s1234567z", "9m", winner=2, discarder=0)
    assert result.pattern_names == ("shi_san_yao",) and result.value == 6
    assert result.payments == (-64, 0, 64, 0)


def test_gd_e11_jiu_lian_bao_deng_not_also_qing_yi_se():
    result = score("1112345678999p", "5p", winner=1, discarder=3)
    assert result.pattern_names == ("jiu_lian_bao_deng",) and result.value == 6
    assert result.payments == (0, 64, 0, -64)


def _e12(options: GuangdongOptions) -> list[ScoreResult]:
    hands = {1: "123m456s777s99m34p", 2: "234m678m456s11s46p", 3: "111p123p46p789p99p"}
    return [score(hand, "5p", winner=seat, discarder=0, winners_on_tile=3, options=options)
            for seat, hand in hands.items()]


def test_gd_e12_yi_pao_san_xiang():
    p1, p2, p3 = _e12(DEFAULT)
    assert p1.pattern_names == ("ji_hu", "yi_pao_san_xiang") and p1.value == 3
    assert p2.pattern_names == ("ping_hu", "yi_pao_san_xiang") and p2.value == 3
    assert p3.pattern_names == ("qing_yi_se", "yi_pao_san_xiang") and p3.value == 4
    total = tuple(map(sum, zip(p1.payments, p2.payments, p3.payments, strict=True)))
    assert total == (-32, 8, 8, 16)


def test_gd_e13_qiang_gang():
    result = score("56m111p234s888s99p", "7m", winner=1, discarder=2, robbed_kong=True)
    assert result.pattern_names == ("ji_hu", "zi_mo", "qiang_gang") and result.value == 3
    assert result.payments == (0, 24, -24, 0)


def test_gd_e14_twelve_tiles_exposed_bao_zi_mo():
    melds = (pung("222m", 0), pung("555p", 2), pung("888s", 0), pung("333m", 3))
    result = score("9p", "9p", winner=1, melds=melds, liable=3)
    assert result.pattern_names == ("peng_peng_hu", "zi_mo") and result.value == 3
    assert result.payments == (0, 24, 0, -24)


def test_gd_e15_gang_shang_kai_hua_bao_gang():
    kong = (Meld("kong", tuple(parse("8888s")), claimed_from=3),)
    result = score("123m456p789p5p", "5p", winner=2, melds=kong, kong_replacement=True, liable=3)
    assert result.pattern_names == ("ji_hu", "zi_mo", "gang_shang_kai_hua") and result.value == 3
    assert result.payments == (0, 0, 24, -24)


def test_gd_e16_tian_hu_ren_hu_di_hu():
    heavenly = score("123m456p789s111z5s", "5s", winner=0, heavenly=True)
    assert heavenly.pattern_names == ("tian_hu",) and heavenly.payments == (192, -64, -64, -64)
    human = score("123m456p789s111z5s", "5s", winner=2, discarder=0, human=True)
    assert human.pattern_names == ("ren_hu",) and human.payments == (-64, 0, 64, 0)
    # The spec gives no hand for P3's 地和: any complete hand is worth a flat 6.
    earthly = score("123m456p789s222z5s", "5s", winner=3, earthly=True)
    assert earthly.pattern_names == ("di_hu",) and earthly.payments == (-64, -64, -64, 192)


def test_gd_e17_discard_pays_all_three():
    e1 = score("123m456p78s222s55p", "9s", winner=1, discarder=3, options=ALL_THREE)
    assert e1.payments == (0, 3, 0, -3)
    e9 = score("555z666z77z123m45p", "6p", winner=1, discarder=3, options=ALL_THREE)
    assert e9.payments == (0, 96, 0, -96)
    e12 = _e12(ALL_THREE)
    assert [r.payments[0] for r in e12] == [-24, -24, -48]
    assert tuple(map(sum, zip(*(r.payments for r in e12), strict=True))) == (-96, 24, 24, 48)
