"""The worked examples that involve the flow (KW-E11..E17, KW-E19), played through the engine on scripted walls.
P0 deals; seats play P0, P1, P2, P0, ...; payments are per seat, kong money included."""

from __future__ import annotations

from types import SimpleNamespace

import hupai
import pytest
from hupai.actions import Action
from hupai.game.scripted import answer, pass_all
from hupai.rules.kawuxing import LIANGDAO

from .helpers import discard_safe, do, kawuxing_game, kind


@pytest.mark.rule("KW-12", "KW-20", "KW-28")
def test_kw_e11_an_gang_then_gang_shang_kai_hua():
    game = kawuxing_game(["7z", "999s12p456p789p55s", ""], draws="9s", replacements="3p")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "kong", 1, "9s", "concealed")
    assert game.table.payments == [-2, 4, -2]
    do(game, "win", 1, "3p")
    (win,) = game.result.wins
    assert win.score.pattern_names == ("gang_shang_kai_hua",)
    assert game.result.payments == (-4, 8, -4)
    assert game.result.next_dealer == 1  # KW-28: the winner deals


@pytest.mark.rule("KW-12", "KW-13", "KW-20", "KW-25")
def test_kw_e12_zhi_gang_then_gang_shang_pao():
    game = kawuxing_game(["123s456s789s68p99s7z", "333p", ""], draws="6z3p", replacements="7p")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z")
    pass_all(game)
    do(game, "discard", 2, "3p")
    answer(game, P1=Action("kong", 1, kind("3p"), (), "exposed"))
    assert game.table.payments == [0, 2, -2]  # the discarder alone pays 2
    do(game, "discard", 1, "7p")
    answer(game, P0=Action("win", 0, kind("7p")))
    (win,) = game.result.wins
    assert win.score.pattern_names == ("gang_shang_pao",)
    assert game.result.payments == (2, 0, -2)


@pytest.mark.rule("KW-14", "KW-11", "KW-10")
def test_kw_e13_robbed_bu_gang_pays_no_kong_money():
    # P2 pungs P0's 5p (P1, waiting on it, passes: 漏胡 until its draw), later draws the fourth 5p and adds it
    # in that same turn (KW-11); P1 robs it.
    game = kawuxing_game(["5p7z", "46p123s789s234p99s", "55p"], draws="6z6z5p")
    do(game, "discard", 0, "5p")
    assert Action("win", 1, kind("5p")) in game.legal_actions(1)
    answer(game, P2=Action("pung", 2, kind("5p")))
    discard_safe(game, 2)
    discard_safe(game, 0)
    discard_safe(game, 1)  # P1's draw ended its 漏胡 block
    do(game, "kong", 2, "5p", "added")
    assert game.current.phase == "rob" and game.table.payments == [0, 0, 0]
    answer(game, P1=Action("win", 1, kind("5p")))
    (win,) = game.result.wins
    assert set(win.score.pattern_names) == {"qiang_gang_hu", "ka_wu_xing"}
    assert game.result.payments == (0, 4, -4)  # no kong money for P2
    assert game.table.payments == [0, 0, 0]


@pytest.mark.rule("KW-13", "KW-12")
def test_kw_e14_gang_shang_gang_chain():
    game = kawuxing_game(["666s7z", "222p777s6s", ""], draws="2p", replacements="7s5z5z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "kong", 1, "2p", "concealed")
    assert game.table.payments == [-2, 4, -2]
    do(game, "kong", 1, "7s", "concealed")  # the replacement is the fourth 7s: second of the chain, x2
    assert game.table.payments == [-6, 12, -6]
    do(game, "discard", 1, "6s")
    answer(game, P0=Action("kong", 0, kind("6s"), (), "exposed"))  # third of the chain, x4: P1 pays 8
    assert game.table.payments == [2, 4, -6]
    assert [(e.info, e.tiles) for e in game.events if e.type == "payment"] == [
        ("kong", (-2, 4, -2)), ("kong", (-4, 8, -4)), ("kong", (8, -8, 0))]


@pytest.mark.rule("KW-13", "KW-11")
def test_kw_13_the_chain_ends_with_any_other_event():
    # P1's first turn: a dealt quad may be konged (KW-11); its next kong, on a tile drawn from the wall turns
    # later, starts a new chain (x1).
    game = kawuxing_game(["7z", "2222p777s", ""], draws="5z6z6z7s", replacements="6z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "kong", 1, "2p", "concealed")
    discard_safe(game, 1)
    discard_safe(game, 2)
    discard_safe(game, 0)
    do(game, "kong", 1, "7s", "concealed")
    assert game.table.payments == [-4, 8, -4]


@pytest.mark.rule("KW-9", "KW-26", "KW-28", "KW-18", "KW-16")
def test_kw_e15_yi_pao_shuang_xiang():
    game = kawuxing_game(["7z", "123p456p789p34s99s", "123p789p234s46s77s"], draws="6z6z5s")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z")
    pass_all(game)
    do(game, "discard", 2, "6z", LIANGDAO)
    pass_all(game)
    revealed = game.observation(0).to_dict()["extras"]["revealed"]
    assert revealed[2] == sorted(hupai.parse("123p789p234s46s77s"))
    assert revealed[1] == [] and game.observation(0).to_dict()["extras"]["liangdao"] == [False, False, True]
    do(game, "discard", 0, "5s")
    answer(game, P1=Action("win", 1, kind("5s")), P2=Action("win", 2, kind("5s")))
    assert game.result.winners == (1, 2)
    assert game.result.payments == (-5, 1, 4)
    assert game.result.next_dealer == 0  # KW-28: the discarder deals after 一炮双响


@pytest.mark.rule("KW-17", "KW-15", "KW-16")
def test_kw_e16_liangdao_and_kongs():
    game = kawuxing_game(["7z", "1112s456p789p555z", "555s123p456p78p99s"], draws="6z6z9s1s5s")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z", LIANGDAO)
    pass_all(game)
    do(game, "discard", 2, "6z", LIANGDAO)
    pass_all(game)
    do(game, "discard", 0, "9s")  # P2 holds 99s but a 亮倒 hand never pungs: no claim window opens
    assert game.current.phase == "turn" and game.current.seats == (1,)
    # P1 draws the fourth 1s: a 暗杠 would shrink its waits 2s 3s to 2s, so it must discard the 1s (摸切).
    assert game.legal_actions(1) == (Action("discard", 1, kind("1s")),)
    do(game, "discard", 1, "1s")
    pass_all(game)
    # P2 draws the fourth 5s: its waits 3p 6p 9p stay, so it may 暗杠 (or discard the 5s, nothing else).
    assert set(game.legal_actions(2)) == {Action("kong", 2, kind("5s"), (), "concealed"),
                                          Action("discard", 2, kind("5s"))}
    do(game, "kong", 2, "5s", "concealed")
    assert game.table.payments == [-2, -2, 4]  # KW-15: never multiplied by 亮倒
    assert game.observation(0).to_dict()["extras"]["revealed"][2] == sorted(hupai.parse("123p456p78p99s"))


@pytest.mark.rule("KW-27")
def test_kw_e17_huang_zhuang_settlement():
    rules = hupai.rules.get("kawuxing")

    def settle(*flags: bool) -> tuple[int, ...]:
        return rules.drawn_settlement(SimpleNamespace(extras={"liangdao": list(flags)}, num_players=3))

    assert settle(False, True, False) == (1, -2, 1)
    assert settle(False, True, True) == (2, -1, -1)
    assert settle(True, True, True) == (0, 0, 0)
    assert settle(False, False, False) == (0, 0, 0)
    assert hupai.rules.get("kawuxing", base=5).drawn_settlement(
        SimpleNamespace(extras={"liangdao": [True, False, False]}, num_players=3)) == (-10, 5, 5)
    (pay,) = rules.on_drawn(SimpleNamespace(extras={"liangdao": [False, True, False]}, num_players=3))
    assert pay.amounts == (1, -2, 1) and pay.reason == "huangzhuang"
    assert rules.on_drawn(SimpleNamespace(extras={"liangdao": [True] * 3}, num_players=3)) == ()


@pytest.mark.rule("KW-15", "KW-27", "KW-28", "KW-6")
def test_kw_e17_kong_money_stands_on_a_drawn_hand_and_the_dealer_repeats():
    game = kawuxing_game(["7z", "999s12p456p789p55s", ""], draws="9s", replacements="6z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "kong", 1, "9s", "concealed")
    while not game.over:
        if game.current.phase == "turn":
            seat = game.current.seats[0]
            game.apply(Action("discard", seat, game.table.drawn))  # 摸切, never winning
        pass_all(game)
    assert game.result.drawn
    assert game.result.payments == (-2, 4, -2)
    assert game.result.next_dealer == 0


@pytest.mark.rule("KW-10")
def test_kw_e19_lou_hu_blocks_any_tile_until_the_next_draw():
    game = kawuxing_game(["7z", "123p456p789p34s99s", ""], draws="6z2s5s6z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z")
    pass_all(game)
    do(game, "discard", 2, "2s")
    assert Action("win", 1, kind("2s")) in game.legal_actions(1)
    game.apply(Action("pass", 1))
    pass_all(game)
    do(game, "discard", 0, "5s")  # completes P1's hand, another kind: P1 may not win on it
    assert Action("win", 1, kind("5s")) not in game.legal_actions(1)
    pass_all(game)
    assert game.current.seats == (1,) and game.table.drawn == kind("6z")  # P1 drew: the block is over
    assert game.table.louhu[1] == 0
