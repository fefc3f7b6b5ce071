"""Guangdong claims on a discard: who may claim (GD-9), priority and several winners (GD-10, GD-24), 漏胡
(GD-11)."""

import pytest
from hupai.bots import RandomBot
from hupai.game import Action, Game
from hupai.game.scripted import answer, discard, discard_drawn, stacked_game
from hupai.tiles import parse


def T(text: str) -> int:
    return parse(text)[0]


def kinds_of(game: Game, seat: int) -> set[str]:
    return {a.kind for a in game.legal_actions(seat)}


def test_gd_9_chow_only_by_the_next_seat_pung_and_win_by_anyone():
    """GD-9 over random games: every chow offered is to the discarder's 下家."""
    for seed in range(40):
        game = Game("guangdong", seed=seed)
        bots = [RandomBot(seed * 7 + i) for i in range(4)]
        while not game.over:
            decision = game.current
            if decision.phase == "claim":
                for seat in decision.seats:
                    for action in game.legal_actions(seat):
                        if action.kind == "chow":
                            assert seat == (decision.source + 1) % 4
                            assert action.tile in action.tiles
                        if action.kind in ("pung", "kong"):
                            assert game.table.hands[seat][action.tile] >= (2 if action.kind == "pung" else 3)
            seat = decision.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))


def test_gd_9_claim_options_on_one_discard():
    """GD-9: P0 discards 5m; P1 (下家) may chow; P2 may pung or kong; P3 may win."""
    game = stacked_game(["5m1z2z3z4z5z6z7z1p1s9s9p9m8m", "34m6m", "555m", "123m456p789s11z67m"])
    discard(game, "5m", then_pass=False)
    assert game.current.seats == (1, 2, 3)
    assert kinds_of(game, 1) == {"chow", "pass"}
    assert {a.tiles for a in game.legal_actions(1) if a.kind == "chow"} == {(2, 3, 4), (3, 4, 5)}
    assert kinds_of(game, 2) == {"kong", "pung", "pass"}
    assert kinds_of(game, 3) == {"win", "pass"}


def test_gd_10_win_beats_kong_and_pung_beats_chow():
    """GD-10: 胡 > 杠/碰 > 吃. A win on the konged discard is an ordinary discard win (GD-14)."""
    game = stacked_game(["5m1z2z3z4z5z6z7z1p1s9s9p9m8m", "34m6m", "555m", "123m456p789s11z67m"])
    discard(game, "5m", then_pass=False)
    game.apply(Action("chow", 1, T("5m"), (3, 4, 5)))
    game.apply(Action("kong", 2, T("5m"), (), "exposed"))
    game.apply(Action("win", 3, T("5m")))
    assert game.result.winners == (3,)
    assert game.result.wins[0].source == "discard"

    game = stacked_game(["5m1z2z3z4z5z6z7z1p1s9s9p9m8m", "46m", "55m", ""])
    discard(game, "5m", then_pass=False)
    game.apply(Action("chow", 1, T("5m"), (3, 4, 5)))
    game.apply(Action("pung", 2, T("5m")))
    assert game.current == ("turn", (2,), -1, 2)  # the pung was taken; P2 discards without drawing (GD-7)
    assert [m.type for m in game.table.melds[2]] == ["pung"]
    assert game.table.melds[1] == []


def test_gd_10_claim_answers_are_collected_before_resolving():
    """GD-10: the claim window waits for every asked seat, whatever order they answer in."""
    game = stacked_game(["5m1z2z3z4z5z6z7z1p1s9s9p9m8m", "46m", "55m", ""])
    discard(game, "5m", then_pass=False)
    game.apply(Action("pung", 2, T("5m")))
    assert game.current.phase == "claim" and game.current.seats == (1,)
    with pytest.raises(Exception, match="already answered"):
        game.apply(Action("pass", 2))
    game.apply(Action("pass", 1))
    assert game.current.seats == (2,)


E12 = ["5p1z2z3z4z5z6z7z9s8s5m5m9m1s", "123m456s777s99m34p", "234m678m456s11s46p", "111p123p46p789p99p"]


def e12_game(**options) -> Game:
    """GD-E12's table, one go-around in (so P0's 5p is not its first discard, which would be 人和)."""
    game = stacked_game(E12, draws="2z3z4z6z", options=options or None)
    discard(game, "1z")
    discard_drawn(game, 3)
    return game


def test_gd_24_e12_three_winners_on_one_discard():
    """GD-24 / GD-E12 一炮三响: every claimant wins; each is raised to 3 番; P0 pays all; P1 deals next."""
    game = e12_game()
    discard(game, "5p", then_pass=False)
    assert game.current.seats == (1, 2, 3)
    for seat in (3, 1, 2):  # the answer order does not matter
        game.apply(Action("win", seat, T("5p")))
    result = game.result
    assert result.winners == (1, 2, 3)
    assert result.payments == (-32, 8, 8, 16)
    assert result.next_dealer == 1
    assert all(win.context.winners_on_tile == 3 for win in result.wins)


def test_gd_10_two_winners_both_win():
    """GD-10 一炮多响: two of the three claim; both win, each settled alone (no 一炮三响 minimum)."""
    game = e12_game()
    discard(game, "5p", then_pass=False)
    answer(game, P1=Action("win", 1, T("5p")), P3=Action("win", 3, T("5p")))
    result = game.result
    assert result.winners == (1, 3)
    assert [w.context.winners_on_tile for w in result.wins] == [2, 2]
    assert result.payments[0] == -sum(result.payments[1:])
    assert result.payments[2] == 0


def test_gd_17_e17_discard_pays_all_three_through_the_flow():
    """GD-E17: with discard_pays = all_three the 一炮三响 discarder pays 96."""
    game = e12_game(discard_pays="all_three")
    discard(game, "5p", then_pass=False)
    for seat in (1, 2, 3):
        game.apply(Action("win", seat, T("5p")))
    assert game.result.payments == (-96, 24, 24, 48)


# GD-E19: P1 waits 1s/4s. Filler hands hold no 2s/3s/5s/6s near P3 or P0 and no pairs of 1s/4s.
E19 = ["1z2z3z4z5z6z7z1p9p1m9m7s8s9s", "123m456m789p23s55p", "1z2z3z4z5z6z7z2p6p2m8m1s3p",
       "1z2z3z4z5z6z7z3p4p3m7m8p6m"]


def _e19(louhu: str) -> Game:
    game = stacked_game(E19, draws="8m4s4s1s", options={"louhu": louhu})
    discard(game, "1z")          # P0
    discard(game, "8m")          # P1 draws 8m and discards it: its hand is unchanged
    discard(game, "4s", then_pass=False)   # P2 draws and discards 4s
    assert "win" in kinds_of(game, 1)
    game.apply(Action("pass", 1))          # P1 declines the win: 漏胡
    answer(game)
    discard(game, "4s", then_pass=False)   # P3 discards 4s
    return game


def test_gd_11_e19_missed_win_same_kind():
    """GD-11 / GD-E19: after declining 4s, P1 may not win on P3's 4s, but may win on P0's 1s."""
    game = _e19("same_kind")
    assert 1 not in game.current.seats and kinds_of(game, 1) == set()
    answer(game)
    discard(game, "1s", then_pass=False)   # P0 draws and discards 1s
    assert "win" in kinds_of(game, 1)
    game.apply(Action("win", 1, T("1s")))
    assert game.result.winners == (1,)


def test_gd_11_e19_missed_win_any_tile():
    """GD-11 / GD-E19 with louhu = any_tile: neither tile can be won on until P1 draws or claims."""
    game = _e19("any_tile")
    answer(game)
    discard(game, "1s", then_pass=False)
    assert kinds_of(game, 1) == {"chow", "pass"}  # P1 can still chow 1s with 23s, not win
    game.apply(Action("pass", 1))
    # P1 draws: the block ends (GD-11: "until that player moves").
    assert game.current == ("turn", (1,), game.table.drawn, 1)
    assert game.table.louhu[1] == 0


def test_gd_11_missed_win_ends_with_a_claim():
    """GD-11: a chow ends the 漏胡 block too."""
    game = _e19("any_tile")
    answer(game)
    discard(game, "1s", then_pass=False)
    game.apply(Action("chow", 1, T("1s"), (T("1s"), T("2s"), T("3s"))))
    assert game.table.louhu[1] == 0
