"""Yunxiao kongs through the engine: types (YX-20), golds and 白板 (YX-21), robbing (YX-22, YX-E15), the table
limit (YX-23), replacements from the tail (YX-13), and kong wins scored as 明杠胡 / 暗杠胡 (YX-38)."""

from __future__ import annotations

from hupai.game import Action, Game
from hupai.game.scripted import pass_all
from hupai.rules.yunxiao import YunxiaoHand

from .flow_helpers import T, decline_predraw, discard_drawn, flags, play_discard, yx_game

E15 = ["", "", "333s123m456m789p2z", "12s456m789m111z55p"]


def _e15():
    """YX-E15: G=9p; P2 holds 333s and draws the fourth 3s; P3 waits on 3s."""
    game = yx_game(E15, "9p", draws="6z3s", replacements="2z")
    discard_drawn(game, 2)
    decline_predraw(game)                        # P2 may 抢金 (ready): declines and draws 3s
    legal = game.legal_actions(2)
    assert Action("kong", 2, T("3s"), (), "concealed") in legal and "ming_gang" in flags(legal)
    return game


def test_yx_22_e15_rob_a_self_drawn_ming_gang():
    """YX-20 / YX-22 / YX-E15: P2 declares 明杠; P3 robs it: +6, each of P0, P1, P2 -2."""
    game = _e15()
    game.apply(Action("declare", 2, T("3s"), (), "ming_gang"))
    assert game.current.phase == "rob" and game.current.seats == (3,)
    game.apply(Action("win", 3, T("3s")))
    result = game.result
    assert result.payments == (-2, -2, -2, 6) and result.wins[0].source == "robbed_kong"
    assert result.wins[0].score.details["event"] == "rob_kong"
    assert game.table.extras["kongs"] == 0       # a robbed kong is not counted


def test_yx_20_e15_ming_gang_hu_when_nobody_robs():
    """YX-E15: nobody robs, the replacement (from the tail, YX-13) completes P2's hand: 明杠胡 +12, each -4;
    P3's declined rob is a missed win (YX-17)."""
    game = _e15()
    game.apply(Action("declare", 2, T("3s"), (), "ming_gang"))
    game.apply(Action("pass", 3))
    assert game.table.louhu[3] == 1 << T("3s")
    assert game.table.drawn == T("2z") and game.table.drawn_from == "replacement"
    meld = game.table.melds[2][0]
    assert meld.type == "kong" and not meld.concealed and game.table.extras["kongs"] == 1
    game.apply(Action("win", 2, T("2z")))
    assert game.result.payments == (-4, -4, 12, -4)
    assert game.result.wins[0].score.details["event"] == "ming_gang"


def test_yx_22_e15_an_gang_cannot_be_robbed():
    """YX-22 / YX-E15: a 暗杠 is not offered to P3; the replacement win is 暗杠胡: +6, each -2."""
    game = _e15()
    game.apply(Action("kong", 2, T("3s"), (), "concealed"))
    assert game.current.phase == "turn" and game.table.drawn == T("2z")
    game.apply(Action("win", 2, T("2z")))
    assert game.result.payments == (-2, -2, 6, -2)
    assert game.result.wins[0].score.details["event"] == "an_gang"


def test_yx_20_ming_gang_without_robbers():
    """YX-20: a self-drawn fourth declared 明杠 that nobody can rob is made at once, with its replacement."""
    game = yx_game(["1111z2z3z4z6z7z1p9p1s9s", "", "", ""], "5m", replacements="8m")
    game.apply(Action("declare", 0, T("1z"), (), "ming_gang"))
    table = game.table
    assert table.melds[0][0].type == "kong" and not table.melds[0][0].concealed
    assert table.drawn == T("8m") and table.drawn_from == "replacement" and table.wall.live == 81
    assert table.extras["kongs"] == 1 and game.current == ("turn", (0,), T("8m"), 0)


def test_yx_22_rob_an_added_kong():
    """YX-20 补杠 / YX-22: P1 pungs P0's 1m and later adds the drawn fourth; P3 (23m) robs it."""
    game = yx_game(["1z2z3z4z6z7z1p9p1s9s7p8p2p1m", "1m1m", "", "23m456p789p111s99s"], "7z",
                   draws="3z4z5z1m")
    game.apply(Action("discard", 0, T("1m")))
    assert Action("win", 3, T("1m")) in game.legal_actions(3)    # 地胡 on offer, declined
    game.apply(Action("pass", 3))
    game.apply(Action("pung", 1, T("1m")))
    pass_all(game)
    play_discard(game, next(k for k in range(34) if game.table.hands[1][k] and k != T("7z")))
    discard_drawn(game, 3)                                       # P2, P3 (its draw ends the 漏胡), P0
    assert game.table.drawn == T("1m")
    game.apply(Action("kong", 1, T("1m"), (), "added"))
    assert game.current.phase == "rob" and game.current.seats == (3,)
    game.apply(Action("win", 3, T("1m")))
    assert game.result.payments == (-2, -2, -2, 6)


def test_yx_20_exposed_kong_on_a_discard_and_ming_gang_hu():
    """YX-20 明杠 on a discard: P1 kongs P0's 1z; its replacement completes the hand: 明杠胡 (YX-38 row 8)."""
    game = yx_game(["2z3z4z6z7z1p9p1s9s7p8p2p3p1z", "111z123m456m789s5p", "", ""], "9m", replacements="5p")
    game.apply(Action("discard", 0, T("1z")))
    game.apply(Action("kong", 1, T("1z"), (), "exposed"))
    pass_all(game)
    assert game.table.drawn == T("5p") and game.table.extras["kongs"] == 1
    game.apply(Action("win", 1, T("5p")))
    assert game.result.payments == (-4, 12, -4, -4)


def test_yx_20_yx_23_three_kongs_in_one_turn_then_the_hand_is_drawn():
    """YX-20: several kongs in one turn; YX-12: the reserve goes 34 -> 38 -> 40; YX-23: after the third kong's
    replacement its maker cannot win, so its only choice is ``pass``: the hand ends at once as a drawn hand
    (YX-44, nothing paid) without a discard, and the deal passes to the dealer's 下家 (YX-45: a kong was
    made)."""
    game = yx_game(["1111z2222z3333z5m8p", "", "", ""], "9s", replacements="1m7p4s")
    for wind in ("1z", "2z", "3z"):
        game.apply(Action("kong", 0, T(wind), (), "concealed"))
    table = game.table
    assert table.extras["kongs"] == 3 and table.drawn == T("4s")
    assert game.legal_actions(0) == (Action("pass", 0),)
    game.apply(Action("pass", 0))
    result = game.result
    assert game.over and result.drawn and result.winners == () and result.payments == (0, 0, 0, 0)
    assert result.next_dealer == 1
    kinds = [event.type for event in game.events]
    assert "discard" not in kinds and kinds[-2:] == ["drawn", "end"]
    assert table.hands[0][T("4s")] == 1  # the replacement stays in the hand: nothing was discarded


def test_yx_23_third_kong_may_win_on_its_replacement():
    """YX-23: the third kong's maker wins on its replacement (暗杠胡); its choices are win or end the hand."""
    game = yx_game(["1111z2222z3333z5m6m", "", "", ""], "9s", replacements="7m9p9p")
    for wind in ("1z", "2z", "3z"):
        game.apply(Action("kong", 0, T(wind), (), "concealed"))
    assert game.legal_actions(0) == (Action("win", 0, T("9p")), Action("pass", 0))
    game.apply(Action("win", 0, T("9p")))
    assert game.result.payments == (6, -2, -2, -2)


def test_yx_23_third_kong_maker_declines_its_win():
    """YX-23 "cannot or does not win": declining the replacement win ends the hand drawn; the log replays."""
    game = yx_game(["1111z2222z3333z5m6m", "", "", ""], "9s", replacements="7m9p9p", dealer=0)
    for wind in ("1z", "2z", "3z"):
        game.apply(Action("kong", 0, T(wind), (), "concealed"))
    game.apply(Action("pass", 0))
    assert game.result.drawn and game.result.next_dealer == 1
    assert Game.replay(game.to_json(), rules=game.rules).to_json() == game.to_json()


def test_yx_23_third_kong_by_a_claim_and_by_a_ming_gang_declaration():
    """YX-23 whatever the third kong is: a 明杠 on a discard, or a self-drawn fourth declared 明杠 (YX-20)
    that nobody may rob; a dealer's 下家 making it still passes the deal on (YX-45)."""
    game = yx_game(["1111z2222z3z4z6z7z1p9p", "333z1m2m3m4p5p6p7s", "", ""], "9s",
                   replacements="1s2s7p", options={"max_kongs": 2})
    game.apply(Action("kong", 0, T("1z"), (), "concealed"))
    game.apply(Action("discard", 0, T("3z")))
    game.apply(Action("kong", 1, T("3z"), (), "exposed"))
    pass_all(game)
    assert game.table.extras["kongs"] == 2 and game.legal_actions(1) == (Action("pass", 1),)
    game.apply(Action("pass", 1))
    assert game.result.drawn and game.result.next_dealer == 1
    game = yx_game(["1111z2222z3z4z6z7z1p9p", "", "", ""], "9s", replacements="1s2s",
                   options={"max_kongs": 2})
    game.apply(Action("kong", 0, T("1z"), (), "concealed"))
    game.apply(Action("declare", 0, T("2z"), (), "ming_gang"))
    assert game.table.drawn_from == "replacement" and game.legal_actions(0) == (Action("pass", 0),)


def test_yx_23_max_kongs_option():
    """YX-23 ``max_kongs``: with 1, the first kong is the last: no further kong or discard, only ``pass``."""
    game = yx_game(["1111z2222z3z4z6z7z1p9p", "", "", ""], "9s", replacements="1m", options={"max_kongs": 1})
    game.apply(Action("kong", 0, T("1z"), (), "concealed"))
    assert game.legal_actions(0) == (Action("pass", 0),)
    game.apply(Action("pass", 0))
    assert game.result.drawn


def test_yx_21_four_whites_are_a_kong_of_the_gold():
    """YX-21: with G=5m four 白板 form a kong (read as a kong of 5m); golds never form one."""
    game = yx_game(["5z5z5z5z1z2z3z4z6z7z1p5m5m5m", "", "", ""], "5m", replacements="9p")
    legal = game.legal_actions(0)
    assert Action("kong", 0, T("5z"), (), "concealed") in legal
    assert not any(a.kind == "kong" and a.tile == T("5m") for a in legal)
    game.apply(Action("kong", 0, T("5z"), (), "concealed"))
    meld = game.table.melds[0][0]
    assert YunxiaoHand((), T("5m"), (meld,)).melds[0].tiles == (T("5m"),) * 4


def _types_after_declare(game):
    events = game.events
    start = max(i for i, e in enumerate(events) if e.type == "declare")
    return [(e.type, e.seat, e.tile, e.info) for e in events[start:]]


def test_yx_20_ming_gang_is_logged_as_a_kong_and_a_replacement_draw():
    """YX-20 / YX-13: a self-drawn 明杠 nobody can rob logs its declaration, the kong (four tiles, exposed) and
    the replacement draw from the tail, like the engine's own kongs; the log replays byte for byte."""
    game = yx_game(["1111z2z3z4z6z7z1p9p1s9s", "", "", ""], "5m", replacements="8m")
    game.apply(Action("declare", 0, T("1z"), (), "ming_gang"))
    assert _types_after_declare(game) == [("declare", 0, T("1z"), "ming_gang"), ("kong", 0, -1, ""),
                                          ("draw", 0, T("8m"), "replacement")]
    assert game.events[-2].tiles == (T("1z"),) * 4
    assert game.table.calls == 1 and game.table.hands[0][T("1z")] == 0
    assert Game.replay(game.to_json(), rules=game.rules).to_json() == game.to_json()


def test_yx_22_robbable_ming_gang_is_logged_and_snapshots_restore():
    """YX-22: a robbable 明杠 opens a rob window (a ``rob`` event); declined, the kong and its replacement are
    logged; a snapshot taken in the rob window continues identically."""
    import json

    game = _e15()
    game.apply(Action("declare", 2, T("3s"), (), "ming_gang"))
    snap = json.loads(json.dumps(game.snapshot()))
    game.apply(Action("pass", 3))
    assert [t for t, *_ in _types_after_declare(game)] == ["declare", "rob", "kong", "draw"]
    meld = game.table.melds[2][0]
    assert meld.tiles == (T("3s"),) * 4 and not meld.concealed and not meld.added
    restored = Game.from_snapshot(snap, rules=game.rules)
    restored.apply(Action("pass", 3))
    assert restored.to_json() == game.to_json()
