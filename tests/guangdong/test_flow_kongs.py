"""Guangdong kongs: types and replacement draws (GD-12), no kong money (GD-13), robbing (GD-14, GD-27),
杠上开花包杠 (GD-26). Worked examples GD-E13 and GD-E15 played through the engine."""

from hupai.game import Action, Game
from hupai.game.scripted import answer, discard, discard_drawn, stacked_game
from hupai.tiles import parse


def T(text: str) -> int:
    return parse(text)[0]


E13 = ["7m1z2z3z4z5z6z7z9p9s1s2p8p3s", "56m111p234s888s9p4z", "77m1z2z3z4z5z6z7z1p4p7p2s", ""]


def _e13_until_added_kong() -> Game:
    game = stacked_game(E13, draws="9m9m9p7m")
    discard(game, "7m", then_pass=False)            # P0
    answer(game, P2=Action("pung", 2, T("7m")))     # P1 could chow it; P2's pung wins (GD-10)
    discard(game, "1z")                             # P2 discards after its pung, without drawing (GD-7)
    discard_drawn(game, 2)                          # P3, P0
    discard(game, "4z")                             # P1 draws 9p: now waits on 4m/7m
    assert game.current == ("turn", (2,), T("7m"), 2)
    assert Action("kong", 2, T("7m"), (), "added") in game.legal_actions(2)
    game.apply(Action("kong", 2, T("7m"), (), "added"))
    return game


def test_gd_27_e13_robbing_an_added_kong():
    """GD-14 / GD-27 / GD-E13: P1 robs P2's 补杠 of 7m: 鸡胡 raised to 3 → 8 × 3, the robbed P2 pays all."""
    game = _e13_until_added_kong()
    assert game.current == ("rob", (1,), T("7m"), 2)
    assert {a.kind for a in game.legal_actions(1)} == {"win", "pass"}
    game.apply(Action("win", 1, T("7m")))
    result = game.result
    assert result.winners == (1,)
    assert result.wins[0].source == "robbed_kong" and result.wins[0].discarder == 2
    assert result.payments == (0, 24, -24, 0)
    assert result.next_dealer == 1  # GD-31: the dealer P0 did not win


def test_gd_12_added_kong_completes_when_nobody_robs():
    """GD-12 补杠: if the robber passes, the pung becomes a kong, P2 draws a replacement; GD-13: no money."""
    game = _e13_until_added_kong()
    game.apply(Action("pass", 1))
    melds = game.table.melds[2]
    assert [(m.type, m.added, m.claimed_from) for m in melds] == [("kong", True, 0)]
    assert game.current.phase == "turn" and game.current.seats == (2,)
    assert game.table.drawn_from == "replacement"
    assert game.table.payments == [0, 0, 0, 0]
    assert game.table.louhu[1] == 1 << T("7m")  # declining the rob is a missed win (GD-11)


E15 = ["1z2z3z4z5z6z7z9m1p1s9s2p3s4s", "", "888s123m456p789p5p", ""]


def test_gd_26_e15_kong_replacement_win_makes_the_konged_discarder_liable():
    """GD-12 明杠 on a discard, GD-20, GD-26 / GD-E15: P2 kongs P3's 8s, the replacement 5p completes 鸡胡:
    scored as 自摸 raised to 3 → 8 × 3, all paid by P3."""
    game = stacked_game(E15, draws="9m9m8s", replacements="5p")
    discard(game, "1z")
    discard_drawn(game, 2)                            # P1, P2
    discard(game, "8s", then_pass=False)              # P3 draws and discards 8s
    assert Action("kong", 2, T("8s"), (), "exposed") in game.legal_actions(2)
    answer(game, P2=Action("kong", 2, T("8s"), (), "exposed"))
    assert game.current == ("turn", (2,), T("5p"), 2)
    assert game.table.kong_from == 3
    game.apply(Action("win", 2, T("5p")))
    win = game.result.wins[0]
    assert win.source == "replacement" and win.context.kong_replacement and win.context.liable == 3
    assert game.result.payments == (0, 0, 24, -24)


def test_gd_14_concealed_kong_cannot_be_robbed():
    """GD-14: P0's 暗杠 of 东 is not offered to P2, although P2's 十三幺 waits on 东."""
    game = stacked_game(["1111z2p3p4p6s7s8s2m3m4m5m", "", "19m19p19s234567z9m", ""], replacements="6m")
    assert game.rules.winning_tiles(game.table, 2) == [T("1z")]
    game.apply(Action("kong", 0, T("1z"), (), "concealed"))
    assert game.current == ("turn", (0,), T("6m"), 0)
    assert [(m.type, m.concealed) for m in game.table.melds[0]] == [("kong", True)]


def test_gd_14_exposed_kong_discard_may_be_won_instead():
    """GD-14: on a 明杠 claimed from a discard, another player wins on the discard itself (not 抢杠)."""
    game = stacked_game(["8s1z2z3z4z5z6z7z9m1p1s9s2p", "123m456p789p67s11z", "888s", ""])
    game.apply(Action("discard", 0, T("8s")))
    assert {a.kind for a in game.legal_actions(1)} >= {"win"}
    assert {a.kind for a in game.legal_actions(2)} >= {"kong"}
    game.apply(Action("kong", 2, T("8s"), (), "exposed"))
    game.apply(Action("win", 1, T("8s")))
    assert game.result.winners == (1,) and game.result.wins[0].source == "discard"
    assert not game.result.wins[0].context.robbed_kong
