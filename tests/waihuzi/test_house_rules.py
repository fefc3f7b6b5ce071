"""Wai Huzi house rules (issue 23): each reading of seed 004 the spec does not follow is an option whose default is
the spec. Each test scores or plays one situation both ways: the default (the spec) and the option (the seed)."""

from __future__ import annotations

import json
import random

import hupai
import pytest
from hupai.cli import main
from hupai.errors import NotAWin
from hupai.game import Game
from hupai.game.scripted import stacked_zipai_game
from hupai.rules.waihuzi import WaihuziOptions

from .flow_helpers import find, game, has
from .helpers import card, context

HOUSE = {"shen_shown": ("WH-5", "random"), "dandiao": ("WH-30", "plus5"), "yidianhong": ("WH-35", "hand"),
         "dihu": ("WH-35", "first_discard"), "shenyao": ("WH-39", "after_win_card"), "sishou": ("WH-27", "at_claim")}
SPEC_OPTIONS = {"min_huxi": 5, "cap": None, "xingxingxi": "loose", "daxiaozihu": True, "haidilao": True,
                "extra_mingtang": False, "shen": None}
E4_HAND = "d8 d8 d8 x1 x2 x3 x6 x7 x8 d1 d2 d3 d4 d5 d6 x2 x7 x10 x5"  # waits x5 and x8 on a pair (单吊)


def test_house_rules_are_described_with_their_rule_and_left_out_of_the_log_at_their_default() -> None:
    infos = {info.name: info for info in WaihuziOptions.describe()}
    for name, (rule, other) in HOUSE.items():
        assert infos[name].rule == rule and infos[name].house and other in infos[name].allowed
    assert hupai.rules.get("waihuzi").options_dict() == SPEC_OPTIONS
    for name, (_, other) in HOUSE.items():
        rules = hupai.rules.get("waihuzi", {name: other})
        assert rules.options_dict() == {**SPEC_OPTIONS, name: other}
        assert hupai.rules.get("waihuzi", rules.options_dict()).options == rules.options


def _rest_pass(g: Game) -> None:
    """Every seat still to answer the open offer passes."""
    for seat in g.current.seats:
        g.apply(hupai.Action("pass", seat))


def _pass_discard(g: Game) -> None:
    """Nobody takes the discard on offer."""
    while g.current.phase == "claim" and g.table.offer_kind == "discard":
        _rest_pass(g)


def _score(ctx: object, **options: object) -> hupai.ScoreResult:
    return hupai.score(hupai.rules.get("waihuzi", **options), ctx)  # type: ignore[arg-type]


# -- WH-30: the single wait (单吊) ----------------------------------------------------------------------------
@pytest.mark.rule("WH-30")
def test_wh_30_single_wait_scores_the_pair_by_default() -> None:
    # WH-E4: 坎 3 + 二七十 1 + the pair 4 self-drawn (单歪) / 1 from another player (单碰).
    assert _score(context(E4_HAND, "x5")).details["xi"] == 8
    assert _score(context(E4_HAND, "x5", discarder=0)).payments == (-5, 10, -5)
    with pytest.raises(NotAWin, match="below min_huxi 6"):
        _score(context(E4_HAND, "x5", discarder=0), min_huxi=6)


@pytest.mark.rule("WH-30", "WH-32")
def test_wh_30_single_wait_plus5() -> None:
    # Seed: 单张吊字...吊到相同字加5息: the pair's 4/1 and 5 more; it counts towards min_huxi too. A win whose
    # unit is not a pair completed by the winning card gets nothing.
    result = _score(context(E4_HAND, "x5"), dandiao="plus5")
    assert result.details["xi"] == 13 and result.details["dandiao_xi"] == 5 and result.value == 13
    assert _score(context(E4_HAND, "x5", discarder=0), dandiao="plus5").payments == (-10, 20, -10)
    assert _score(context(E4_HAND, "x5", discarder=0), dandiao="plus5", min_huxi=6).value == 10
    menzi = _score(context(E4_HAND, "x4", discarder=0), dandiao="plus5", min_huxi=3)  # unit x5x6: a 门子
    assert "dandiao_xi" not in menzi.details and menzi.details["xi"] == 4


def _dealer_discards_x5(**options: object) -> Game:
    """P1 holds the WH-E4 hand; P0 (dealer) opens by discarding x5; ``min_huxi`` 6 unless given."""
    options.setdefault("min_huxi", 6)
    g = game({0: "x5", 1: E4_HAND}, **options)
    g.apply(find(g, 0, "discard", "x5"))
    return g


@pytest.mark.rule("WH-30", "WH-32")
def test_wh_30_the_flow_offers_no_win_below_the_minimum_by_default() -> None:
    assert not has(_dealer_discards_x5(), 1, "win", "x5")


@pytest.mark.rule("WH-30", "WH-32")
def test_wh_30_the_flow_offers_the_single_wait_win_with_plus5() -> None:
    g = _dealer_discards_x5(dandiao="plus5")
    g.apply(find(g, 1, "win", "x5"))
    _rest_pass(g)
    (won,) = g.result.wins
    assert won.score.details["xi"] == 10 and "di_hu" in won.score.pattern_names


# -- WH-35: 一点红 ---------------------------------------------------------------------------------------------
E8_HAND = "x1 x1 x1 x3 x4 x5 x4 x5 x6 d3 d4 d5 d4 d5 d6 x9"
CHI_HAND = "x1 x1 x1 d9 d9 d9 x4 x5 x6 d3 d4 d5 d4 d5 d6 x9"  # with [吃 x1x2x3] and x8: 6 息, the chowed x2 red


@pytest.mark.rule("WH-35")
def test_wh_35_yi_dian_hong_counts_the_layout_by_default() -> None:
    # WH-E8 with [歪 d7d7d7]: four red cards in the layout (d7 x3, x7), so no 一点红: 7 息, 7 each.
    assert _score(context(E8_HAND, "x7", "[歪 d7d7d7]", discarder=0)).value == 7
    # A chowed x2 as the layout's one red card: 一点红.
    chi = _score(context(CHI_HAND, "x8", "[吃 x1x2x3]", discarder=0))
    assert "yi_dian_hong" in chi.pattern_names


@pytest.mark.rule("WH-35")
def test_wh_35_yi_dian_hong_counts_the_hand() -> None:
    # Seed: 一点红：胡牌时，手上只有一个红字: the held cards and the winning card, not the declared groups.
    hand = _score(context(E8_HAND, "x7", "[歪 d7d7d7]", discarder=0), yidianhong="hand")
    assert "yi_dian_hong" in hand.pattern_names and hand.value == 28
    chi = _score(context(CHI_HAND, "x8", "[吃 x1x2x3]", discarder=0),
                 yidianhong="hand")
    assert "yi_dian_hong" not in chi.pattern_names


# -- WH-5: the card shown for the 神 ---------------------------------------------------------------------------
@pytest.mark.rule("WH-5")
def test_wh_5_the_dealers_last_dealt_card_is_shown_by_default() -> None:
    for seed in range(5):
        g = Game("waihuzi", seed=seed)
        (shown,) = [e for e in g.events if e.type == "shen"]
        assert shown.seat == g.table.dealer and shown.tile == g.table.wall.tiles[19]


@pytest.mark.rule("WH-5")
def test_wh_5_shen_shown_random() -> None:
    # Seed: 发牌过程中系统随机亮一张牌: any of the 58 dealt cards, drawn from the game's seed; it stays in the hand
    # of the seat dealt it, and decides the 神 as before.
    holders = set()
    for seed in range(30):
        g = Game("waihuzi", seed=seed, options={"shen_shown": "random"})
        (shown,) = [e for e in g.events if e.type == "shen"]
        index = random.Random(f"hupai-shen-{seed}").randrange(58)
        assert shown.tile == g.table.wall.tiles[index] and g.table.hands[shown.seat][shown.tile] >= 1
        assert g.table.shen == ("odd" if (shown.tile % 10) % 2 == 0 else "even")  # card 0 is 小一: odd
        holders.add(shown.seat)
        again = Game.replay(g.to_json())
        assert again.to_json() == g.to_json() and json.loads(g.to_json())["options"]["shen_shown"] == "random"
    assert holders == {0, 1, 2}


# -- the options reach the command line and the server ---------------------------------------------------------
@pytest.mark.rule("WH-30")
def test_wh_30_house_rule_from_simulate_option(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--rules", "waihuzi", "-o", "dandiao=plus5", "-o", "yidianhong=hand", "-o",
            "shen_shown=random", "--hands", "2", "--workers", "1", "--json"]
    assert main(argv) == 0
    options = json.loads(capsys.readouterr().out)["spec"]["options"]
    assert (options["dandiao"], options["yidianhong"], options["shen_shown"]) == ("plus5", "hand", "random")


@pytest.mark.rule("WH-5")
def test_wh_5_house_rule_from_server_table_creation() -> None:
    pytest.importorskip("starlette")
    from hupai.serve.tables import parse_config
    from hupai.serve.wire import WireError

    config, rules, _ = parse_config({"rules": "waihuzi", "options": {"shen_shown": "random"}})
    assert config.options["shen_shown"] == "random" and rules.options.shen_shown == "random"
    with pytest.raises(WireError, match="dandiao"):
        parse_config({"rules": "waihuzi", "options": {"dandiao": 5}})


@pytest.mark.rule("WH-35")
def test_wh_35_house_rule_through_hupai_score_options() -> None:
    ctx = context(E8_HAND, "x7", "[歪 d7d7d7]", discarder=0)
    assert hupai.score("waihuzi", ctx).value == 7
    assert hupai.score(hupai.rules.get("waihuzi", yidianhong="hand"), ctx).value == 28
    assert card("x7") == ctx.win_tile


# -- WH-35: 地胡 after the dealer's opening 溜 -----------------------------------------------------------------
def _dealer_opens_with_liu(**options: object) -> Game:
    """P0 (dealer) opens by clearing its four d9 (溜); P1 turns up x4, which P0 pungs; P0 then discards x8, on
    which P1 (the WH-E4 hand: x5x6x7 and the pair x8) wins, 5 息."""
    g = game({0: "x4 x4 x8 d9 d9 d9 d9", 1: E4_HAND}, stock="x4", window="eligible", **options)
    g.apply(find(g, 0, "liu", "d9"))
    for seat in g.current.seats:
        if seat != 0:
            g.apply(hupai.Action("pass", seat))
    g.apply(find(g, 0, "pung", "x4"))
    g.apply(find(g, 0, "discard", "x8"))
    g.apply(find(g, 1, "win", "x8"))
    _rest_pass(g)
    return g


@pytest.mark.rule("WH-35", "WH-38")
def test_wh_35_di_hu_only_on_the_opening_discard_by_default() -> None:
    (won,) = _dealer_opens_with_liu().result.wins
    assert "di_hu" not in won.score.pattern_names and "bao_ting" in won.score.pattern_names


@pytest.mark.rule("WH-35", "WH-36")
def test_wh_35_di_hu_on_the_dealers_first_discard_after_an_opening_liu() -> None:
    # Seed: 闲家胡庄家打出的第一张牌，算地胡: the dealer's first discarded card, whenever it comes; 地胡 replaces 报听.
    (won,) = _dealer_opens_with_liu(dihu="first_discard").result.wins
    assert "di_hu" in won.score.pattern_names and "bao_ting" not in won.score.pattern_names


@pytest.mark.rule("WH-35")
def test_wh_35_di_hu_first_discard_is_only_the_first() -> None:
    # P0 opens by discarding d10 (its first discard; nobody takes it), later pungs x4 and discards x8: P1's win on
    # it is no 地胡 under either reading.
    g = game({0: "x4 x4 x8 d10", 1: E4_HAND}, stock="x4", window="eligible", dihu="first_discard")
    g.apply(find(g, 0, "discard", "d10"))
    _pass_discard(g)
    g.apply(find(g, 0, "pung", "x4"))
    _rest_pass(g)
    g.apply(find(g, 0, "discard", "x8"))
    g.apply(find(g, 1, "win", "x8"))
    _rest_pass(g)
    assert "di_hu" not in g.result.wins[0].score.pattern_names


# -- WH-39: the 神腰 card --------------------------------------------------------------------------------------
@pytest.mark.rule("WH-39")
def test_wh_39_shen_yao_card_is_the_stock_top_after_any_win_by_default() -> None:
    g = _dealer_discards_x5(min_huxi=5)
    g.apply(find(g, 1, "win", "x5"))
    _rest_pass(g)
    assert g.result.wins[0].context.shen_card == g.table.wall.tiles[58]


@pytest.mark.rule("WH-39")
def test_wh_39_shen_yao_from_the_card_after_the_winning_card() -> None:
    # Seed: 如果胡牌的那张牌的下一张翻开...: the card after the winning card in the stock. A discard has none (no
    # 神腰); a turned-up winning card has the next stock card.
    g = _dealer_discards_x5(min_huxi=5, shenyao="after_win_card")
    g.apply(find(g, 1, "win", "x5"))
    _rest_pass(g)
    assert g.result.wins[0].context.shen_card is None and "shen_yao" not in g.result.wins[0].score.pattern_names
    drawn = game({0: "d10", 1: E4_HAND}, stock="x5 x9", window="eligible", shenyao="after_win_card")
    drawn.apply(find(drawn, 0, "discard", "d10"))
    _pass_discard(drawn)
    drawn.apply(find(drawn, 1, "win", "x5"))
    _rest_pass(drawn)
    (won,) = drawn.result.wins
    assert won.source == "wall" and won.context.shen_card == card("x9")
    assert "shen_yao" in won.score.pattern_names  # x9 is odd, the session 神 "odd"


# -- WH-27: when a fatal 碰 makes 死手 ------------------------------------------------------------------------------
def _fatal_pung(**options: object) -> Game:
    """P1 passes P0's discarded d6 (pair d6 d6: peng-ban d6); P2 later turns up the last d6 and P1 碰s it."""
    g = game({0: "d6 x2", 1: "d6 d6 d8 d8 x9"}, stock="d1 d6 d8 d2", **options)
    g.apply(find(g, 0, "discard", "d6"))
    for _ in range(2):  # P0's d6, P1's d1
        _rest_pass(g)
    assert g.current.tile == card("d6") and g.current.source == 2
    g.apply(find(g, 1, "pung", "d6"))
    _rest_pass(g)
    assert (g.table.dead >> 1 & 1)
    return g


@pytest.mark.rule("WH-27")
def test_wh_27_sishou_after_its_discard_by_default() -> None:
    g = _fatal_pung()
    assert g.current.phase == "turn" and g.current.seats == (1,)  # it still makes its discard


@pytest.mark.rule("WH-27", "WH-11", "WH-12")
def test_wh_27_sishou_at_the_claim_still_discards_and_keeps_the_hand_size() -> None:
    # Seed 先摸后打: 任何吃碰等都要打牌，溜和飘除外 (every 吃/碰 is followed by a discard). The option once skipped
    # it, and the 死手 seat held one card more than every observation said (issue 29: 17 against 16).
    g = _fatal_pung(sishou="at_claim")
    assert g.current.phase == "turn" and g.current.seats == (1,)
    assert g.legal_actions(1) == _fatal_pung().legal_actions(1)  # as the default plays
    g.apply(next(a for a in g.legal_actions(1) if a.kind == "discard"))
    assert g.table.cards_held(1) == g.table.at_rest(1) == 19  # WH-11
    assert tuple(sum(hand) for hand in g.table.hands) == g.observation(0).hand_sizes == g.observation(1).hand_sizes
    assert Game.replay(g.to_json()).to_json() == g.to_json()


@pytest.mark.rule("WH-27", "WH-11")
def test_wh_27_the_issue_case_holds_the_count_every_observation_reports() -> None:
    g = stacked_zipai_game({0: "d7", 2: "d6 d6"}, stock="d6 d5 d6", options={"sishou": "at_claim"})
    g.apply(find(g, 0, "discard", "d7"))
    pungs = 0
    while not (g.seats_to_act == (2,) and any(a.kind == "pung" for a in g.legal_actions(2)) and pungs == 1):
        seat = g.seats_to_act[0]
        pungs += seat == 2 and any(a.kind == "pung" for a in g.legal_actions(2))
        g.apply(hupai.Action("pass", seat))
    g.apply(find(g, 2, "pung", "d6"))
    assert (g.table.dead >> 2 & 1) and g.current.seats == (2,)
    g.apply(next(a for a in g.legal_actions(2) if a.kind == "discard"))
    assert sum(g.table.hands[2]) == 16 == g.observation(0).hand_sizes[2] == g.observation(2).hand_sizes[2]


@pytest.mark.rule("WH-35")
def test_wh_35_house_rule_from_the_score_command_and_notation(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "[歪 d7d7d7] " + E8_HAND
    argv = ["score", "waihuzi", hand, "--win-tile", "x7", "--winner", "1", "--discarder", "0", "--json"]
    assert main(argv) == 0 and json.loads(capsys.readouterr().out)["value"] == 7
    assert main([*argv, "-o", "yidianhong=hand"]) == 0 and json.loads(capsys.readouterr().out)["value"] == 28
    house = hupai.score("waihuzi", hand, win_tile="x7", winner=1, discarder=0, options={"yidianhong": "hand"})
    assert house.value == 28
