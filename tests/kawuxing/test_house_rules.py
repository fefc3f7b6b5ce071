"""Kawuxing house rules (issue 23): each reading of seed 002 the spec does not follow is an option whose default is
the spec. Each test plays or scores one situation both ways: the default (the spec) and the option (the seed)."""

from __future__ import annotations

import json

import hupai
import pytest
from hupai.actions import Action
from hupai.cli import main
from hupai.game import Game
from hupai.game.scripted import answer, pass_all
from hupai.game.state.table import LOUHU_ALL
from hupai.hand import Meld
from hupai.rules.kawuxing import LIANGDAO, KawuxingOptions

from .helpers import do, kawuxing_game, kind, pung, score
from .test_spec_audit_flow import _to_the_last_draw, discard_drawn, win

HOUSE = {"louhu_scope": ("KW-10", "discards"), "liangdao_wins": ("KW-17", "self_draw"),
         "liangdao_discarder": ("KW-18", "double"), "si_gui_yi": ("KW-21", "by_source"),
         "shou_zhua_yi": ("KW-20", "pungs"), "hai_di_lao_yue": ("KW-20", "last_tile")}


def test_house_rules_are_described_with_their_rule_and_left_out_of_the_log_at_their_default() -> None:
    infos = {info.name: info for info in KawuxingOptions.describe()}
    for name, (rule, other) in HOUSE.items():
        assert infos[name].rule == rule and infos[name].house and other in infos[name].allowed
    # The logged options are what they were before the house rules existed: old logs replay byte for byte.
    assert hupai.rules.get("kawuxing").options_dict() == {"base": 1, "cap": None}
    for name, (_, other) in HOUSE.items():
        rules = hupai.rules.get("kawuxing", {name: other})
        assert rules.options_dict() == {"base": 1, "cap": None, name: other}
        assert hupai.rules.get("kawuxing", rules.options_dict()).options == rules.options


# -- KW-10: 漏胡 and robbing a kong ---------------------------------------------------------------------------
def _declined_then_rob(**options: str) -> Game:
    """P1 (45p 789p 123s 456s 55z: waits 3p 6p) passes P2's 6p, which P0 pungs; after its draw it passes P2's 3p
    (漏胡 until its next draw); P0 then draws the fourth 6p and adds it to its pung before P1 draws."""
    game = kawuxing_game(["66p7z7z", "45p789p123s456s55z", "6p3p"], draws="6z6z6z6z6p", replacements="1s",
                         options=options)
    do(game, "discard", 0, "7z")
    pass_all(game)
    discard_drawn(game)  # P1
    do(game, "discard", 2, "6p")
    answer(game, P0=Action("pung", 0, kind("6p")), P1=Action("pass", 1))
    do(game, "discard", 0, "7z")
    pass_all(game)
    discard_drawn(game)  # P1's draw ends its first block
    do(game, "discard", 2, "3p")
    answer(game, P1=Action("pass", 1))
    assert game.table.louhu[1] == LOUHU_ALL
    do(game, "kong", 0, "6p", "added")
    return game


@pytest.mark.rule("KW-10")
def test_kw_10_louhu_blocks_robbing_a_kong_by_default() -> None:
    game = _declined_then_rob()
    assert game.current.phase == "turn" and game.current.seats == (0,)  # nobody is asked: P1 is blocked
    assert game.table.payments == [2, -1, -1]  # the 补杠 is made: 1 from each


@pytest.mark.rule("KW-10", "KW-14", "KW-18")
def test_kw_10_louhu_scope_discards_blocks_robbing_a_kong_too() -> None:
    # Seed 九.2 blocks wins on 另外玩家打出的牌; its 七.2 defines 点炮胡 as 胡他人打出的牌(包括抢杠胡), the reading
    # KW-18's liangdao_discarder="double" takes for a robbed 补杠. So the blocked P1 may not rob the 6p either.
    game = _declined_then_rob(louhu_scope="discards")
    assert game.current.phase == "turn" and game.current.seats == (0,)  # nobody is asked: P1 is blocked
    assert game.table.payments == [2, -1, -1]


# -- KW-17: what a 亮倒 hand may win on ------------------------------------------------------------------------
def _declared_then_discard(**options: str) -> Game:
    """P1 declares 亮倒 with 123p 789p 234s 46s 77s (waits 5s) and P2 then discards a 5s."""
    game = kawuxing_game(["7z", "123p789p234s46s77s", "5s"], draws="6z6z", options=options)
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z", LIANGDAO)
    pass_all(game)
    do(game, "discard", 2, "5s")
    return game


@pytest.mark.rule("KW-17", "KW-18")
def test_kw_17_liangdao_wins_on_a_discard_by_default() -> None:
    game = _declared_then_discard()
    assert game.current.phase == "claim" and win(1, "5s") in game.legal_actions(1)
    answer(game, P1=win(1, "5s"))
    assert game.result.payments == (0, 4, -4)  # 卡五星 2 x 亮倒 2, the discarder alone


@pytest.mark.rule("KW-17")
def test_kw_17_liangdao_self_draw_only() -> None:
    # Seed 九.5 亮倒后...只能自摸胡牌: P1 is not offered P2's 5s; it would still win on a drawn one.
    game = _declared_then_discard(liangdao_wins="self_draw")
    assert game.current.phase == "turn" and game.current.seats == (0,)
    rules = hupai.rules.get("kawuxing", liangdao_wins="self_draw")
    assert not rules.may_win(game.table, 1, kind("5s"), "robbed_kong")  # nor rob a kong
    assert rules.may_win(game.table, 1, kind("5s"), "wall") and rules.may_win(game.table, 0, kind("5s"),
                                                                                "robbed_kong")


# -- KW-18: what the discarder into a 亮倒 hand pays --------------------------------------------------------
@pytest.mark.rule("KW-18")
def test_kw_18_liangdao_discarder_pays_the_value_by_default() -> None:
    result = score("123p789p234s46s77s", "5s", discarder=0, liangdao=True)
    assert result.value == 4 and result.payments == (-4, 4, 0)


@pytest.mark.rule("KW-18", "KW-25")
def test_kw_18_liangdao_discarder_pays_double() -> None:
    # Seed 九.1 赔2倍 and 九.5 点炮者出双份: 卡五星 2 x 亮倒 2 = 4, paid twice by the discarder; a self-draw and a
    # hand not declared pay as before.
    double = {"liangdao_discarder": "double"}
    doubled = score("123p789p234s46s77s", "5s", discarder=0, liangdao=True, options=double)
    assert doubled.payments == (-8, 8, 0)
    assert doubled.details["liangdao_double"] is True  # what the result screen says of the payment
    assert score("123p789p234s46s77s", "5s", liangdao=True, options=double).payments == (-4, 8, -4)
    plain = score("123p789p234s46s77s", "5s", discarder=0, options=double)
    assert plain.payments == (-2, 2, 0) and "liangdao_double" not in plain.details


# -- KW-21: 明四归一 and 暗四归一 by the way the tile came ----------------------------------------------------
@pytest.mark.rule("KW-21", "KW-20")
def test_kw_21_si_gui_yi_counts_on_any_win_by_default() -> None:
    assert score("46s123p789p99p", "5s", melds=(pung("5s"),)).value == 4  # 明四归一 self-drawn: 2 x 卡五星 2
    assert score("333p12p789s456s77s", "3p", discarder=0).value == 4  # 暗四归一 on a discard


@pytest.mark.rule("KW-21", "KW-20")
def test_kw_21_si_gui_yi_by_source() -> None:
    # Seed 八.2 明四归一 ... (放炮) and 八.3 暗四归一 ... (自摸): each only the way the seed marks it.
    by_source = {"si_gui_yi": "by_source"}
    ming = score("46s123p789p99p", "5s", melds=(pung("5s"),), options=by_source)
    assert ming.value == 2 and ming.pattern_names == ("ka_wu_xing",)
    assert score("46s123p789p99p", "5s", discarder=2, melds=(pung("5s"),), options=by_source).value == 4
    an = score("333p12p789s456s77s", "3p", discarder=0, options=by_source)
    assert an.value == 1 and an.pattern_names == ()
    assert score("333p12p789s456s77s", "3p", options=by_source).value == 4


# -- KW-20: 手抓一 and 海底捞月 ---------------------------------------------------------------------------------
_DRAGONS = (pung("5z"), pung("6z"), pung("7z"))


@pytest.mark.rule("KW-20")
def test_kw_20_shou_zhua_yi_counts_kongs_by_default() -> None:
    kong = Meld("kong", (kind("9p"),) * 4, claimed_from=2, claimed_tile=kind("9p"))
    result = score("3s", "3s", discarder=2, melds=(*_DRAGONS, kong))
    assert "shou_zhua_yi" in result.pattern_names and result.value == 64  # 大三元 8 x 碰碰胡 2 x 手抓一 4


@pytest.mark.rule("KW-20")
def test_kw_20_shou_zhua_yi_pungs_needs_four_open_melds_kongs_included() -> None:
    # Seed 八.13 已碰了四对牌, and its own example 七.4(2): 中发白 as "3副刻子(杠)" keep 手抓一 ("如果有开杠，还需再加上
    # 喜钱番数"). An exposed kong keeps it; a 暗杠 was never 碰'd, so it does not.
    pungs = {"shou_zhua_yi": "pungs"}
    kong = Meld("kong", (kind("9p"),) * 4, claimed_from=2, claimed_tile=kind("9p"))
    with_kong = score("3s", "3s", discarder=2, melds=(*_DRAGONS, kong), options=pungs)
    assert "shou_zhua_yi" in with_kong.pattern_names and with_kong.value == 64
    dragon_kong = Meld("kong", (kind("7z"),) * 4, claimed_from=2, claimed_tile=kind("7z"))
    example = score("3s", "3s", discarder=2, melds=(*_DRAGONS[:2], dragon_kong, pung("9p")), options=pungs)
    assert "shou_zhua_yi" in example.pattern_names and example.value == 64  # 大三元 8 x 碰碰胡 2 x 手抓一 4
    concealed = Meld("kong", (kind("9p"),) * 4, concealed=True)
    hidden = score("3s", "3s", discarder=2, melds=(*_DRAGONS, concealed), options=pungs)
    assert "shou_zhua_yi" not in hidden.pattern_names and hidden.value == 16
    assert "shou_zhua_yi" in score("3s", "3s", discarder=2, melds=(*_DRAGONS, concealed)).pattern_names
    assert score("3s", "3s", discarder=2, melds=(*_DRAGONS, pung("9p")), options=pungs).value == 64


@pytest.mark.rule("KW-18", "KW-24")
def test_kw_18_double_pays_two_shares_of_the_capped_value() -> None:
    # The cap (KW-24) bounds a hand's value, the factor product; the seed's 点炮者出双份 is a payment, two shares of
    # that value: a 亮倒 清一色 碰碰胡 hand (factor 2 x 4 x 2 = 16) capped at 8 pays 2 x 8 from its discarder.
    capped = {"liangdao_discarder": "double", "cap": 8}
    result = score("3s", "3s", discarder=2, melds=(pung("1s"), pung("2s"), pung("4s"), pung("9s")),
                   liangdao=True, options=capped)
    assert result.value == 8 and result.payments == (0, 16, -16)


def _final_discard_won(**options: str) -> Game:
    """P2 draws the last tile, 5z, and must discard it; P0 (123p 456p 789p 123s 5z) wins on it."""
    game = _to_the_last_draw(["123p456p789p123s5z7z", "5z5z", ""], "5z")
    if options:  # the same deal under the option: the log replays under other rules
        log = json.loads(game.to_json())
        log["options"] = {**log["options"], **options}
        game = Game.replay(json.dumps(log))
    do(game, "discard", 2, "5z")
    answer(game, P0=win(0, "5z"))
    return game


@pytest.mark.rule("KW-20", "KW-6")
def test_kw_20_hai_di_lao_yue_is_a_self_draw_by_default() -> None:
    game = _final_discard_won()
    assert game.result.wins[0].score.pattern_names == () and game.result.payments == (1, 0, -1)


@pytest.mark.rule("KW-20", "KW-6")
def test_kw_20_hai_di_lao_yue_on_the_84th_tile_however_it_comes() -> None:
    # Seed 八.14 胡整付牌的最后一张(第84张)牌: the final discard is that tile too: 屁胡 x 海底捞月 2, paid by P2.
    game = _final_discard_won(hai_di_lao_yue="last_tile")
    assert game.result.wins[0].score.pattern_names == ("hai_di_lao_yue",) and game.result.payments == (2, 0, -2)
    assert score("123p456p789p123s5z", "5z", winner=0, discarder=2, last_tile=True,
                 options={"hai_di_lao_yue": "last_tile"}).value == 2
    assert score("123p456p789p123s5z", "5z", winner=0, discarder=2, last_tile=True).value == 1


# -- the options reach the command line, the server and hupai.score ----------------------------------------
@pytest.mark.rule("KW-18")
def test_kw_18_house_rule_from_simulate_option(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--rules", "kawuxing", "-o", "liangdao_discarder=double", "-o", "liangdao_wins=self_draw",
            "--hands", "3", "--workers", "1", "--json"]
    assert main(argv) == 0
    options = json.loads(capsys.readouterr().out)["spec"]["options"]
    assert options["liangdao_discarder"] == "double" and options["liangdao_wins"] == "self_draw"


@pytest.mark.rule("KW-10")
def test_kw_10_house_rule_from_server_table_creation() -> None:
    pytest.importorskip("starlette")
    from hupai.serve.tables import parse_config
    from hupai.serve.wire import WireError

    config, rules, _ = parse_config({"rules": "kawuxing", "options": {"louhu_scope": "discards"}})
    assert config.options["louhu_scope"] == "discards" and rules.louhu_blocks_robbing
    with pytest.raises(WireError, match="louhu_scope"):
        parse_config({"rules": "kawuxing", "options": {"louhu_scope": "never"}})


@pytest.mark.rule("KW-21")
def test_kw_21_house_rule_through_hupai_score_options() -> None:
    hand = "[555s]46s123p789p99p"
    assert hupai.score("kawuxing", hand, win_tile="5s").value == 4
    assert hupai.score("kawuxing", hand, win_tile="5s", options={"si_gui_yi": "by_source"}).value == 2
