"""Yunxiao self-draws and declarations through the engine: 自摸 (YX-E2), the 游金 state machine (YX-25..YX-28;
YX-E4, YX-E5, YX-E6, YX-E7, YX-E13), 三金倒 (YX-29, YX-E14), 抢金胡 (YX-30, YX-E16), 天胡 (YX-31, YX-E10)."""

from __future__ import annotations

from hupai.game import Action
from hupai.game.scripted import pass_all

from .flow_helpers import T, decline_predraw, discard_drawn, flags, play_discard, yx_game


def _declare(game, flag: str) -> None:
    seat = game.current.seats[0]
    assert game.current.phase == "predraw"
    action = next(a for a in game.legal_actions(seat) if a.flag == flag)
    game.apply(action)


def _e4() -> object:
    """YX-E4 up to P2's draw of 9s: G=5p, P2 holds 123m456m789p9s111z5p."""
    game = yx_game(["", "", "123m456m789p111z5p", ""], "5p", draws="6z9s7z6z3p9s")
    discard_drawn(game, 2)  # P0, P1
    assert game.current.phase == "predraw" and flags(game.legal_actions(2)) == {"qiang_jin"}  # YX-30
    decline_predraw(game)   # P2 declines: draws 9s
    assert game.table.drawn == T("9s")
    return game


def test_yx_e2_self_draw():
    """YX-E2 / YX-38: the YX-E1 hand (G=9s) self-draws 5s: 自摸 2 each, +6."""
    game = yx_game(["", "123m456m789p5s111z", "", ""], "9s", draws="5s")
    discard_drawn(game)
    decline_predraw(game)                                   # 抢金 declined: P1 draws 5s
    game.apply(Action("win", 1, T("5s")))
    assert game.result.payments == (-2, 6, -2, -2) and game.result.wins[0].source == "wall"


def test_yx_e4_option_a_self_draw():
    """YX-E4 option A: win now by 自摸, the gold pairing 9s: 2 each."""
    game = _e4()
    game.apply(Action("win", 2, T("9s")))
    assert game.result.payments == (-2, -2, 6, -2)
    assert game.result.wins[0].score.details["event"] == "self_draw"


def test_yx_e4_option_b_dan_you_jin_and_yx_28_restriction():
    """YX-E4 option B / YX-26 / YX-27 / YX-28: discarding 9s leaves the 游 shape (level 1); P2 may not win on
    P1's 3p; at its next turn, before drawing, P2 declares 单游金: +12, each -4."""
    game = _e4()
    play_discard(game, "9s")
    assert game.table.extras["you"] == [0, 0, 1, 0]
    discard_drawn(game, 2)                                  # P3, P0
    decline_predraw(game)
    game.apply(Action("discard", 1, T("3p")))               # P1 draws 3p and discards it
    assert game.current.phase == "predraw"                  # 单游: no win on another's tile, no claim window

    assert game.current.phase == "predraw" and game.current.seats == (2,)
    live = game.table.wall.live
    _declare(game, "you_jin")
    assert game.table.wall.live == live                     # no tile drawn (YX-27)
    result = game.result
    assert result.payments == (-4, -4, 12, -4) and result.wins[0].source == "you_jin"
    assert result.wins[0].score.details["you_level"] == 1 and result.next_dealer == 2


def test_yx_27_declining_means_drawing():
    """YX-27: a level 1 player who passes draws and plays on; the level is recomputed at its next discard."""
    game = _e4()
    play_discard(game, "9s")
    discard_drawn(game, 3)
    game.apply(Action("pass", 2))
    assert game.current.phase == "turn" and game.table.drawn == T("9s")
    play_discard(game, "1z")                                # breaks the 游 shape
    assert game.table.extras["you"][2] == 0


def _e5() -> object:
    """YX-E5: G=5p, P2 draws a second gold: 123m456m789p111z5p5p is complete; P2 discards a gold (level 2).
    P3 waits on 2s/5s."""
    game = yx_game(["", "", "123m456m789p111z5p", "123s456s789s22z34s"], "5p",
                   draws="6z5p7z2s6z5p5s7z6z")
    discard_drawn(game, 2)
    decline_predraw(game)
    assert Action("win", 2, T("5p")) in game.legal_actions(2)
    play_discard(game, "5p")
    assert game.table.extras["you"] == [0, 0, 2, 0]
    # YX-28: 抢金 disabled at 双游: P3, ready at its first turn, is not asked and draws.
    assert game.current.phase == "turn" and game.current.seats == (3,)
    discard_drawn(game)                                     # P3
    decline_predraw(game)
    game.apply(Action("discard", 0, T("2s")))               # P0 draws 2s: P3 would win, but 双游 forbids
    assert 3 not in game.current.seats
    pass_all(game)
    discard_drawn(game)                                     # P1
    return game


def test_yx_e5_shuang_you_jin():
    """YX-E5: at its next turn P2 declares 双游金: +24, each -8."""
    game = _e5()
    _declare(game, "you_jin")
    assert game.result.payments == (-8, -8, 24, -8)
    assert game.result.wins[0].score.details["you_level"] == 2


def test_yx_e6_san_you_jin():
    """YX-E6: P2 declines, draws the third gold and discards a gold: level 3; meanwhile P3 may not win by an
    ordinary self-draw; at its next turn P2 declares 三游金: +48, each -16."""
    game = _e5()
    game.apply(Action("pass", 2))
    assert game.table.drawn == T("5p")
    play_discard(game, "5p")
    assert game.table.extras["you"] == [0, 0, 3, 0]
    assert game.table.drawn == T("5s") and game.current.seats == (3,)
    assert Action("win", 3, T("5s")) not in game.legal_actions(3)   # YX-28 三游: only kong replacements
    play_discard(game, "5s")
    discard_drawn(game, 2)
    _declare(game, "you_jin")
    assert game.result.payments == (-16, -16, 48, -16)


def test_yx_e7_qing_yi_se_dan_you_jin():
    """YX-E7 / YX-39 row 10: G=5m; P1 draws 2m holding 123m456m789m111m5m, discards 2m (level 1) and
    declares 清一色单游金, the one combination that stacks: +36, each -12."""
    game = yx_game(["", "123m456m789m111m5m", "", ""], "5m", draws="2m1z2z3z4z")
    discard_drawn(game)
    decline_predraw(game)
    assert Action("win", 1, T("2m")) in game.legal_actions(1)
    play_discard(game, "2m")
    assert game.table.extras["you"][1] == 1
    discard_drawn(game, 3)
    _declare(game, "you_jin")
    assert game.result.payments == (-12, 36, -12, -12)


def test_yx_e13_seven_pairs_you_shape():
    """YX-E13 / YX-25: G=8p; 1133m2299p55s77z6s8p: discarding 6s leaves six pairs + the gold: level 1."""
    game = yx_game(["", "1133m2299p55s77z8p", "", ""], "8p", draws="6s1z2z3z4z")
    discard_drawn(game)
    decline_predraw(game)
    play_discard(game, "6s")
    assert game.table.extras["you"][1] == 1
    discard_drawn(game, 3)
    _declare(game, "you_jin")
    assert game.result.payments == (-4, 12, -4, -4)


def test_yx_29_e14_san_jin_dao():
    """YX-29 / YX-E14: G=3s; P2 holds 19m479p258s127z3s3s and draws the third gold: 三金倒, +6, each -2."""
    game = yx_game(["", "", "19m479p258s127z3s3s", ""], "3s", draws="6z3s")
    discard_drawn(game, 2)
    decline_predraw(game)
    assert game.table.drawn == T("3s")
    game.apply(Action("win", 2, T("3s")))
    win = game.result.wins[0]
    assert win.score.details["event"] == "san_jin_dao" and game.result.payments == (-2, -2, 6, -2)


def test_yx_30_e16_qiang_jin_hu():
    """YX-30 / YX-E16: G=7p; P0 discards 1z, nobody claims; P1 (123m456m789s55p34s, ready) takes the
    indicator instead of drawing: +6, each -2."""
    game = yx_game(["2z3z4z6z7z1p9p1s9s8p2p3p4p1z", "123m456m789s55p34s", "", ""], "7p")
    play_discard(game, "1z")
    assert game.current == ("predraw", (1,), -1, 1)
    live = game.table.wall.live
    _declare(game, "qiang_jin")
    assert game.table.wall.live == live
    assert game.result.payments == (-2, 6, -2, -2)
    assert game.result.wins[0].score.details["event"] == "rob_gold"
    assert game.table.extras["indicator"] == -1


def test_yx_30_window_closes_on_a_claim():
    """YX-30: any 吃/碰/杠 closes the window: after P3 pungs P0's 1z, P1's first turn offers no 抢金."""
    game = yx_game(["2z3z4z6z7z1p9p1s9s8p2p3p4p1z", "123m456m789s55p34s", "", "1z1z"], "7p")
    game.apply(Action("discard", 0, T("1z")))
    game.apply(Action("pung", 3, T("1z")))
    pass_all(game)
    play_discard(game, next(k for k in range(34) if game.table.hands[3][k] and k != T("7p")))
    discard_drawn(game)                                     # P0
    assert game.current.seats == (1,) and game.current.phase == "turn"


def test_yx_30_window_is_the_first_go_around():
    """YX-30: each non-dealer gets the chance at its own first turn only (P1 declines; at P1's second turn the
    window is closed)."""
    game = yx_game(["2z3z4z6z7z1p9p1s9s8p2p3p4p1z", "123m456m789s55p34s", "", ""], "7p",
                   draws="9m9m9m9m")
    play_discard(game, "1z")
    assert flags(game.legal_actions(1)) == {"qiang_jin"}
    discard_drawn(game, 4)                                  # P1 (declines), P2, P3, P0
    assert game.current.seats == (1,) and game.current.phase == "turn"


def test_yx_31_e10_tian_hu():
    """YX-31 / YX-E10: G=9s, the dealer's dealt 123m456m789p111z55s is 天胡: +30, each -10; three golds in any
    shape are 天胡 too."""
    game = yx_game(["123m456m789p111z55s", "", "", ""], "9s")
    assert Action("win", 0, T("5s")) in game.legal_actions(0)
    game.apply(Action("win", 0, T("5s")))
    assert game.result.payments == (30, -10, -10, -10)
    assert game.result.wins[0].score.details["event"] == "tian_hu"
    game = yx_game(["19m479p258s127z9s9s9s", "", "", ""], "9s")
    game.apply(next(a for a in game.legal_actions(0) if a.kind == "win"))
    assert game.result.payments == (30, -10, -10, -10)


def test_yx_26_dealt_hand_is_never_in_a_you_state():
    """YX-26: a 游 level comes only from a discard."""
    game = yx_game(["123m456m789p111z5p9s", "", "", ""], "5p")
    assert game.table.extras["you"] == [0, 0, 0, 0]
    play_discard(game, "9s")
    assert game.table.extras["you"] == [1, 0, 0, 0]
