"""Yunxiao claims through the engine: the 白板 stand-in (YX-7), golds never claimed (YX-11), who may claim
and priority (YX-14, YX-15), 过张 (YX-16, YX-E19), 漏胡 (YX-17, YX-E20), three golds (YX-18), 地胡 (YX-31),
the fifth copy (YX-8, YX-E17), options in play (YX-E3, YX-E21) and the discard wins of YX-E1, YX-E8, YX-E10,
YX-E11, YX-E12."""

from __future__ import annotations

import pytest
from hupai.game import Action
from hupai.game.scripted import pass_all

from .flow_helpers import T, decline_predraw, discard_drawn, kinds_of, play_discard, yx_game


def _discard_no_pass(game, tile: str | int) -> None:
    decline_predraw(game)
    game.apply(Action("discard", game.current.seats[0], T(tile) if isinstance(tile, str) else tile))


def test_yx_e1_discard_win_and_yx_14_win_claim():
    """YX-E1 / YX-14: G=9s, P3 discards 5s and P1 (123m456m789p5s111z) wins 平胡: +4, P3 -2, P0 -1, P2 -1."""
    game = yx_game(["", "123m456m789p5s111z", "", ""], "9s", draws="2z3z5s")
    discard_drawn(game, 3)                      # P0 (its dealt 14th), P1 (declines 抢金), P2
    _discard_no_pass(game, "5s")                # P3 draws 5s and discards it
    assert game.current.phase == "claim" and 1 in game.current.seats
    game.apply(Action("win", 1, T("5s")))
    pass_all(game)
    result = game.result
    assert result.winners == (1,) and result.wins[0].source == "discard"
    assert result.payments == (-1, 4, -1, -2)
    assert result.wins[0].score.details["event"] == "discard" and result.next_dealer == 1


def test_yx_15_head_bump_and_win_beats_pung():
    """YX-15: one winner only; of P2 (下家) and P3 (对家) both winning on P1's 5s, P2 takes it."""
    game = yx_game(["", "", "123m456m789p5s111z", "123p456p789s5s222z"], "9m", draws="5s")
    discard_drawn(game)                         # P0
    _discard_no_pass(game, "5s")                # P1 draws 5s and discards it
    assert Action("win", 2, T("5s")) in game.legal_actions(2)
    assert Action("win", 3, T("5s")) in game.legal_actions(3)
    game.apply(Action("win", 3, T("5s")))
    game.apply(Action("win", 2, T("5s")))
    pass_all(game)
    assert game.result.winners == (2,)
    assert game.result.payments == (-1, -2, 4, -1)


def test_yx_15_win_beats_pung():
    game = yx_game(["", "", "123m456m789p5s111z", "5s5s1p4p7p2s8s3z4z6z7z9m6m"], "9m", draws="5s")
    discard_drawn(game)
    _discard_no_pass(game, "5s")
    assert Action("pung", 3, T("5s")) in game.legal_actions(3)
    game.apply(Action("pung", 3, T("5s")))
    game.apply(Action("win", 2, T("5s")))
    pass_all(game)
    assert game.result.winners == (2,)


def test_yx_14_chow_only_from_the_left():
    """YX-14: only the discarder's 下家 may chow: P2 with 12m may chow P1's 3m, P3 with 45m may not."""
    game = yx_game(["", "", "12m1z2z3z4z5z6z7z1p9p1s9s", "45m"], "9p", draws="3m")
    discard_drawn(game)
    _discard_no_pass(game, "3m")
    assert Action("chow", 2, T("3m"), (T("1m"), T("2m"), T("3m"))) in game.legal_actions(2)
    assert not any(a.kind == "chow" for a in game.legal_actions(3))


def test_yx_16_e19_guozhang_after_a_chow():
    """YX-16 / YX-E19: chowing 5m with 34m forbids discarding 2m and 5m this turn; a later turn is free."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5m", "2m34m5m1z", "", ""], "9s")
    _discard_no_pass(game, "5m")
    game.apply(Action("chow", 1, T("5m"), (T("3m"), T("4m"), T("5m"))))
    pass_all(game)
    discards = kinds_of(game.legal_actions(1), "discard")
    assert T("2m") not in discards and T("5m") not in discards and T("1z") in discards
    assert game.table.hands[1][T("2m")] == 1 and game.table.hands[1][T("5m")] == 1


def test_yx_16_e19_sanjiaoma_closed_chow_forbids_only_the_chowed_kind():
    """YX-16 三角码 / YX-E19: holding 246m and chowing 5m with 46m, 2m may be discarded; 5m may not."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5m", "246m5m1z", "", ""], "9s")
    _discard_no_pass(game, "5m")
    game.apply(Action("chow", 1, T("5m"), (T("4m"), T("5m"), T("6m"))))
    pass_all(game)
    discards = kinds_of(game.legal_actions(1), "discard")
    assert T("2m") in discards and T("5m") not in discards


def test_yx_16_golds_stay_discardable_after_a_chow():
    """YX-16: golds may always be discarded: with G=2m, a 2m in hand after chowing 5m with 34m is allowed."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5m", "2m34m5m1z", "", ""], "2m")
    _discard_no_pass(game, "5m")
    game.apply(Action("chow", 1, T("5m"), (T("3m"), T("4m"), T("5m"))))
    pass_all(game)
    assert T("2m") in kinds_of(game.legal_actions(1), "discard")


@pytest.mark.parametrize("louhu", ["same_kind", "any_tile"])
def test_yx_17_e20_louhu(louhu):
    """YX-17 / YX-E20: P1 (waits 1s/4s) declines P2's 4s; P3's 4s is then blocked; P0's 1s is allowed under
    ``same_kind`` and blocked under ``any_tile`` until P1 draws."""
    game = yx_game(["", "123m456m789p23s55p", "", ""], "9m", draws="7z4s4s1s", options={"louhu": louhu})
    discard_drawn(game, 2)                            # P0, P1 (declines 抢金, draws 7z)
    _discard_no_pass(game, "4s")                      # P2
    assert Action("win", 1, T("4s")) in game.legal_actions(1)
    pass_all(game)                                    # P1 declines the win
    _discard_no_pass(game, "4s")                      # P3
    assert Action("win", 1, T("4s")) not in game.legal_actions(1)
    pass_all(game)
    _discard_no_pass(game, "1s")                      # P0
    allowed = Action("win", 1, T("1s")) in game.legal_actions(1)
    assert allowed == (louhu == "same_kind")
    pass_all(game)
    assert game.current.seats == (1,) and game.table.drawn >= 0  # P1 drew: the block is gone (a move)
    assert game.table.louhu[1] == 0


def test_yx_7_white_pung_and_win_on_a_white_but_never_on_a_gold():
    """YX-7: with G=5m a 白板 plays as 5m: P1 waiting on 5m (46m) may win on a discarded 白板 (here the
    dealer's first discard: 地胡); YX-11 / YX-E18: a discarded 5m is a gold and nobody may claim it."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5z", "123m46m789p111z99p", "", ""], "5m")
    _discard_no_pass(game, "5z")
    assert Action("win", 1, T("5z")) in game.legal_actions(1)
    game.apply(Action("win", 1, T("5z")))
    pass_all(game)
    assert game.result.wins[0].score.details["event"] == "di_hu"
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5m", "123m46m789p111z99p", "5z5z", "5m"], "5m")
    _discard_no_pass(game, "5m")
    assert game.current.phase == "predraw" or game.current.phase == "turn"  # no claim window at all
    assert game.current.seats == (1,)


def test_yx_7_white_pung_melds_as_gold_face():
    """YX-7: two 白板 pung a discarded 白板 (all three play as G=5m); the meld is read as [555m]."""
    from hupai.rules.yunxiao import YunxiaoHand
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5z", "", "5z5z", ""], "5m")
    _discard_no_pass(game, "5z")
    game.apply(Action("pung", 2, T("5z")))
    pass_all(game)
    meld = game.table.melds[2][0]
    assert meld.type == "pung" and YunxiaoHand((), T("5m"), (meld,)).melds[0].tiles == (T("5m"),) * 3


def test_yx_e18_chow_a_white_as_the_gold_face():
    """YX-E18 / YX-7: G=5m, P1 holds 46m and chows P0's 白板 as 5m: the action lists the physical tiles in run
    order, the meld is 456m (effective kinds, the claimed tile the 白板), the hand gives up 4m and 6m; YX-16
    then forbids the chowed kind, so a held 白板 (playing as 5m) may not be discarded, a gold may."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5z", "46m5z5m1z2z3z1p4p7p1s4s7s", "", ""], "5m")
    _discard_no_pass(game, "5z")
    chow = Action("chow", 1, T("5z"), (T("4m"), T("5z"), T("6m")))
    assert [a for a in game.legal_actions(1) if a.kind == "chow"] == [chow]
    before = game.hand(1)
    game.apply(chow)
    pass_all(game)
    meld = game.table.melds[1][0]
    assert meld.type == "chow" and meld.tiles == (T("4m"), T("5m"), T("6m")) and meld.claimed_tile == T("5z")
    after = game.hand(1)
    assert [before[k] - after[k] for k in range(34)] == [int(k in (T("4m"), T("6m"))) for k in range(34)]
    assert not game.table.discards[0]
    event = game.events[-1]
    assert (event.type, event.tile, event.tiles) == ("chow", T("5z"), (T("4m"), T("5m"), T("6m")))
    discards = kinds_of(game.legal_actions(1), "discard")
    assert T("5z") not in discards and T("5m") in discards and T("1z") in discards


def test_yx_e18_chow_with_a_held_white_as_the_gold_face():
    """YX-7 / YX-14: G=5m, P1 holds 4m and a 白板 and chows P0's 6m as 456m, giving up the 白板 (a gold 5m
    never enters a claimed meld); YX-16: 4m5m are consecutive, so 3m and 6m are forbidden this turn."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p6m", "3m4m5m6m5z1z2z3z1p4p7p1s4s", "", ""], "5m")
    _discard_no_pass(game, "6m")
    chows = [a for a in game.legal_actions(1) if a.kind == "chow"]
    assert chows == [Action("chow", 1, T("6m"), (T("4m"), T("5z"), T("6m")))]
    game.apply(chows[0])
    pass_all(game)
    assert game.table.melds[1][0].tiles == (T("4m"), T("5m"), T("6m"))
    hand = game.hand(1)
    assert hand[T("5z")] == 0 and hand[T("5m")] == 1 and hand[T("4m")] == 0
    discards = kinds_of(game.legal_actions(1), "discard")
    assert T("3m") not in discards and T("6m") not in discards and T("5m") in discards


def test_yx_14_a_gold_does_not_make_a_chow():
    """YX-14: golds are never usable in a claimed meld: with G=5m, 4m and a gold 5m cannot chow 6m."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p6m", "4m5m1z2z3z1p4p7p1s4s7s2z3z", "", ""], "5m")
    _discard_no_pass(game, "6m")
    assert not any(a.kind == "chow" for a in game.legal_actions(1))


def test_yx_16_guozhang_lasts_through_a_kong_in_the_chow_turn():
    """YX-16 / YX-20: P1 chows 5m with 34m, then makes a 暗杠 in the same turn: after the replacement draw 2m
    and 5m are still forbidden; after its discard, in its next turn, the restriction is gone."""
    game = yx_game(["2z3z4z6z7z1p9p1s9s7p8p2p3p5m", "2m34m5m1111z7s8p6z1p4s", "", ""], "9s",
                   draws="7z6z3z4z", replacements="8s")
    _discard_no_pass(game, "5m")
    game.apply(Action("chow", 1, T("5m"), (T("3m"), T("4m"), T("5m"))))
    pass_all(game)
    game.apply(Action("kong", 1, T("1z"), (), "concealed"))
    assert game.table.drawn == T("8s") and game.table.drawn_from == "replacement"
    discards = kinds_of(game.legal_actions(1), "discard")
    assert T("2m") not in discards and T("5m") not in discards and T("8s") in discards
    play_discard(game, "8s")
    discard_drawn(game, 3)                       # P2, P3, P0
    assert game.current.seats == (1,) and game.table.drawn == T("4z")
    discards = kinds_of(game.legal_actions(1), "discard")
    assert T("2m") in discards and T("5m") in discards


def test_yx_17_louhu_on_a_white_as_the_gold_face():
    """YX-17 / YX-7: G=5m, P1 (waiting on 5m: 46m) declines P2's 白板; P3's 白板 is then blocked too."""
    game = yx_game(["", "123m46m789p111z99p", "", ""], "5m", draws="7z5z5z")
    discard_drawn(game, 2)                       # P0, P1 (declines 抢金, draws 7z)
    _discard_no_pass(game, "5z")                 # P2
    assert Action("win", 1, T("5z")) in game.legal_actions(1)
    pass_all(game)
    assert game.table.louhu[1] == 1 << T("5z")
    _discard_no_pass(game, "5z")                 # P3
    assert Action("win", 1, T("5z")) not in game.legal_actions(1)


def test_yx_18_three_golds_cannot_win_on_a_discard():
    """YX-18 / YX-E14: holding all three golds, P2 may not win on P1's ordinary discard, but may after a draw
    (YX-29 三金倒 or 自摸)."""
    game = yx_game(["", "", "123m456m789p3s3s3s1z", ""], "3s", draws="1z1z")
    discard_drawn(game)
    _discard_no_pass(game, "1z")                   # P1 draws 1z and discards it: P2's hand would be complete
    assert Action("win", 2, T("1z")) not in game.legal_actions(2)
    pass_all(game)
    decline_predraw(game)                          # P2 may 抢金 (ready, first turn): declines, draws 1z
    assert Action("win", 2, T("1z")) in game.legal_actions(2)


def test_yx_18_three_golds_may_win_qing_yi_se_on_a_discard():
    """YX-18: the 清一色 exception: G=5s, P2 holds 111s23s46s789s + three golds and wins on P1's 9s."""
    game = yx_game(["", "", "111s23s46s789s5s5s5s", ""], "5s", draws="9s")
    discard_drawn(game)
    _discard_no_pass(game, "9s")
    assert Action("win", 2, T("9s")) in game.legal_actions(2)
    game.apply(Action("win", 2, T("9s")))
    pass_all(game)
    assert game.result.payments == (-9, -10, 28, -9)  # row 4, 清一色 on a discard


def test_yx_31_e10_di_hu_and_three_golds():
    """YX-31 / YX-E10: P2 wins on the dealer's first discard 5s: 地胡 +28, P0 -10, P1 -9, P3 -9."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p5s", "", "123m456m789p5s111z", ""], "9s")
    _discard_no_pass(game, "5s")
    game.apply(Action("win", 2, T("5s")))
    pass_all(game)
    assert game.result.payments == (-10, -9, 28, -9)
    assert game.result.wins[0].score.details["event"] == "di_hu"


def test_yx_31_di_hu_with_three_golds():
    """YX-18 exception: 地胡 is allowed while holding the three golds."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s8s7p8p2p5s", "", "123m456m789p9s9s9s1z", ""], "9s")
    _discard_no_pass(game, "5s")
    assert Action("win", 2, T("5s")) in game.legal_actions(2)


def test_yx_e8_qing_yi_se_and_e9_san_pu_on_a_discard():
    """YX-E8: G=5p, P1 (123m456m789m111m9m) wins on P3's 9m: +28, P3 -10, P0 -9, P2 -9."""
    game = yx_game(["", "123m456m789m111m9m", "", ""], "5p", draws="1z2z9m")
    discard_drawn(game, 3)
    _discard_no_pass(game, "9m")
    game.apply(Action("win", 1, T("9m")))
    pass_all(game)
    assert game.result.payments == (-9, 28, -9, -10)


@pytest.mark.parametrize(("options", "payments"), [
    ({"base_points": 5}, (-5, 20, -5, -10)),            # YX-E3
    ({"scoring": "multiplier_001"}, (-1, 3, -1, -1)),   # YX-E21
])
def test_yx_e3_e21_options_in_play(options, payments):
    """YX-3 / YX-E3 ``base_points`` and YX-41 / YX-E21 ``multiplier_001`` on the YX-E1 hand."""
    game = yx_game(["", "123m456m789p5s111z", "", ""], "9s", draws="2z3z5s", options=options)
    discard_drawn(game, 3)
    _discard_no_pass(game, "5s")
    game.apply(Action("win", 1, T("5s")))
    pass_all(game)
    assert game.result.payments == payments


def test_yx_e11_yao_jiu_white_is_plain_white():
    """YX-E11 / YX-7 exception: G=5m, P1 holds 19m19p19s1234567z: every terminal or honor completes it, a
    discarded 白板 included, a gold 5m not (so no 抢金 either); P3's 9m pays 幺九 2 each: +6."""
    game = yx_game(["", "19m19p19s1234567z", "", ""], "5m", draws="2m3m9m")
    discard_drawn(game)
    assert game.current.phase == "turn"                         # no 抢金: a gold does not complete it
    assert set(game.rules.winning_tiles(game.table, 1)) == {T(t) for t in
                                                             ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z",
                                                              "3z", "4z", "5z", "6z", "7z")}
    discard_drawn(game, 2)
    _discard_no_pass(game, "9m")
    game.apply(Action("win", 1, T("9m")))
    pass_all(game)
    assert game.result.payments == (-2, 6, -2, -2)


def test_yx_e12_bu_da_on_a_discard():
    """YX-E12: G=5p, P1 holds 14m259s369p12467z, waiting on 7m/8m/9m and a drawn gold (so 抢金 is on offer);
    P3's 8m: +4, P3 -2, P0 -1, P2 -1."""
    game = yx_game(["", "14m259s369p12467z", "", ""], "5p", draws="3z3z8m")
    discard_drawn(game)
    assert game.rules.winning_tiles(game.table, 1) == [T("7m"), T("8m"), T("9m")]
    discard_drawn(game, 2)                      # P1 declines 抢金 and discards 3z, P2
    _discard_no_pass(game, "8m")
    game.apply(Action("win", 1, T("8m")))
    pass_all(game)
    assert game.result.payments == (-1, 4, -1, -2)


def test_yx_8_e17_fifth_copy_in_play():
    """YX-8 / YX-E17: G=5s; P1 pungs 1m ([111m]), keeps the fourth 1m with 234p567p789s and draws a gold: no
    win (the gold would be a fifth 1m); discarding 1m leaves the 游 shape (level 1)."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p1m", "1m1m1m234p567p789s5z", "", ""], "5s",
                   draws="3z4z6z5s")
    game.apply(Action("discard", 0, T("1m")))
    game.apply(Action("pung", 1, T("1m")))
    pass_all(game)
    play_discard(game, "5z")
    discard_drawn(game, 3)
    assert game.table.drawn == T("5s") and game.current.seats == (1,)
    assert not any(a.kind == "win" for a in game.legal_actions(1))
    _discard_no_pass(game, "1m")
    assert game.table.extras["you"][1] == 1


def test_yx_28_dan_you_restricts_only_its_player_and_shuang_you_everyone():
    """YX-28 through the rules hook: at 单游 only that player loses wins on others' tiles; at 双游 nobody
    wins on others' tiles and 抢杠 is off, while self-draws stay allowed."""
    game = yx_game(["", "", "", ""], "5p")
    rules, table = game.rules, game.table
    table.extras["you"] = [0, 0, 1, 0]
    assert not rules.may_win(table, 2, T("3p"), "discard") and rules.may_win(table, 3, T("3p"), "discard")
    table.extras["you"] = [0, 0, 2, 0]
    assert not any(rules.may_win(table, seat, T("3p"), "discard") for seat in range(4))
    assert not rules.may_win(table, 3, T("3p"), "robbed_kong")
    assert rules.may_win(table, 3, T("3p"), "wall")


def test_yx_40_e9_san_pu_liability_in_play():
    """YX-40 / YX-E9: G=5p; P1 chows 2m (13m) and 5m (46m) from P0 and pungs P0's 9m, holding [123m] [456m]
    [999m] 78m 55m; P3's 6m completes 清一色 with three exposed melds: P3 pays 26, P0 and P2 1 each; YX-43:
    the result names the scoring row used (row 3, chosen over row 4 by YX-39)."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p2m", "13m46m99m78m55m1z2z3z", "", ""], "5p",
                   draws="1s4s5m2s7s9m3s6m")
    game.apply(Action("discard", 0, T("2m")))
    game.apply(Action("chow", 1, T("2m"), (T("1m"), T("2m"), T("3m"))))
    pass_all(game)
    play_discard(game, "1z")
    discard_drawn(game, 2)                                      # P2, P3
    _discard_no_pass(game, "5m")                                # P0 draws 5m and discards it
    game.apply(Action("chow", 1, T("5m"), (T("4m"), T("5m"), T("6m"))))
    pass_all(game)
    play_discard(game, "2z")
    discard_drawn(game, 2)
    _discard_no_pass(game, "9m")
    game.apply(Action("pung", 1, T("9m")))
    pass_all(game)
    play_discard(game, "3z")
    discard_drawn(game)                                         # P2
    _discard_no_pass(game, "6m")                                # P3
    game.apply(Action("win", 1, T("6m")))
    pass_all(game)
    assert game.result.payments == (-1, 28, -1, -26)
    assert game.result.wins[0].score.details["row"] == 3


def test_yx_14_a_chow_of_tiles_playing_as_themselves_is_the_engine_s_shared_meld():
    """YX-7 only changes a chow with a 白板 in it: any other chow is the meld Rules.claim_meld shares (built once,
    not made and checked at every claim), equal to the one Yunxiao would make, taking the same tiles."""
    from hupai.rules.base import Rules

    game = yx_game(["", "", "12m1z2z3z4z5z6z7z1p9p1s9s", "45m"], "9p", draws="3m")
    discard_drawn(game)
    _discard_no_pass(game, "3m")
    chow = Action("chow", 2, T("3m"), (T("1m"), T("2m"), T("3m")))
    used, meld = game.rules.claim_meld(game.table, chow)
    shared = Rules.claim_meld(game.rules, game.table, chow)
    assert used == shared[0] == (T("1m"), T("2m")) and meld is shared[1]
    assert (meld.tiles, meld.claimed_from, meld.claimed_tile) == ((T("1m"), T("2m"), T("3m")), 1, T("3m"))
