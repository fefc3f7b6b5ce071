"""Table, deal, turns, claims and kong timing of Kawuxing (KW-1..KW-11), on the engine."""

from __future__ import annotations

from collections import Counter

import hupai
import pytest
from hupai.actions import Action
from hupai.game import Game, Match
from hupai.game.scripted import answer, pass_all
from hupai.tiles import counts_to_kinds

from .helpers import discard_safe, do, kawuxing_game, kind


@pytest.mark.rule("KW-1", "KW-2", "KW-4", "KW-5")
def test_kw_1_2_4_5_tiles_seats_deal():
    rules = hupai.rules.get("kawuxing")
    assert Counter(rules.tiles()) == {k: 4 for k in (*range(9, 27), 31, 32, 33)}
    assert len(rules.tiles()) == 84 and rules.num_players == 3
    for seed in range(5):
        game = Game("kawuxing", seed=seed, dealer=seed % 3)
        table = game.table
        dealer = seed % 3
        assert [sum(h) for h in table.hands] == [14 if s == dealer else 13 for s in range(3)]
        assert table.wall.live == 44  # no dead wall
        assert game.current.seats == (dealer,) and list(table.draws) == [0, 0, 0]  # the dealer starts without a draw
        assert all(not any(h[k] for k in (*range(9), *range(27, 31))) for h in table.hands)  # no 万, no winds


@pytest.mark.rule("KW-4", "KW-28")
def test_kw_4_the_first_dealer_is_random_from_the_seed():
    firsts = {Match("kawuxing", seed=seed).first_dealer for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert Match("kawuxing", seed=3).first_dealer == Match("kawuxing", seed=3).first_dealer


@pytest.mark.rule("KW-8")
def test_kw_8_no_chow():
    game = kawuxing_game(["3p7z", "12p45p", ""], draws="6z")
    do(game, "discard", 0, "3p")
    assert game.current.phase == "turn" and game.current.seats == (1,)  # nobody could claim: P1 drew
    assert hupai.rules.get("kawuxing").chow_seats(game.table, 0) == ()


@pytest.mark.rule("KW-9")
def test_kw_9_win_beats_pung():
    game = kawuxing_game(["5p7z", "46p123s789s234p99s", "55p"])
    do(game, "discard", 0, "5p")
    game.apply(Action("pung", 2, kind("5p")))
    game.apply(Action("win", 1, kind("5p")))
    assert game.result.winners == (1,) and game.result.payments == (-2, 2, 0)  # 卡五星


@pytest.mark.rule("KW-11")
def test_kw_11_an_gang_only_in_the_turn_the_fourth_arrives():
    game = kawuxing_game(["7z", "999s", ""], draws="9s6z6z5z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    assert Action("kong", 1, kind("9s"), (), "concealed") in game.legal_actions(1)
    discard_safe(game, 1)  # declines the kong: the right is lost
    discard_safe(game, 2)
    discard_safe(game, 0)
    assert game.current.seats == (1,)
    assert not any(a.kind == "kong" for a in game.legal_actions(1))


@pytest.mark.rule("KW-11")
def test_kw_11_dealt_quads_only_in_the_first_turn():
    game = kawuxing_game(["7z", "9999s", ""], draws="6z6z6z5z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    assert Action("kong", 1, kind("9s"), (), "concealed") in game.legal_actions(1)
    discard_safe(game, 1)
    discard_safe(game, 2)
    discard_safe(game, 0)
    assert not any(a.kind == "kong" for a in game.legal_actions(1))


@pytest.mark.rule("KW-11")
def test_kw_11_pung_while_holding_three_can_never_kong():
    game = kawuxing_game(["3p7z", "333p", ""], draws="6z6z5z")
    do(game, "discard", 0, "3p")
    assert Action("kong", 1, kind("3p"), (), "exposed") in game.legal_actions(1)
    answer(game, P1=Action("pung", 1, kind("3p")))
    assert not any(a.kind == "kong" for a in game.legal_actions(1))
    discard_safe(game, 1)
    discard_safe(game, 2)
    discard_safe(game, 0)
    assert game.current.seats == (1,)
    assert not any(a.kind == "kong" for a in game.legal_actions(1))  # the fourth 3p was never drawn


@pytest.mark.rule("KW-11")
def test_kw_11_bu_gang_only_with_the_fresh_fourth():
    # P2 pungs 5p, draws the fourth 5p and keeps it: the 补杠 right is lost for good.
    game = kawuxing_game(["5p7z", "", "55p"], draws="6z6z5p6z5z5z")
    do(game, "discard", 0, "5p")
    answer(game, P2=Action("pung", 2, kind("5p")))
    discard_safe(game, 2)
    discard_safe(game, 0)
    discard_safe(game, 1)
    assert Action("kong", 2, kind("5p"), (), "added") in game.legal_actions(2)
    hand = game.table.hands[2]
    other = next(k for k in range(34) if hand[k] and k != kind("5p"))
    game.apply(Action("discard", 2, other))
    pass_all(game)
    discard_safe(game, 0)
    discard_safe(game, 1)
    assert not any(a.kind == "kong" for a in game.legal_actions(2))


def _last_tile_game(last: str, pair_seat: int) -> Game:
    """A hand whose last wall tile (drawn by P2, the 44th draw) is ``last``, of which ``pair_seat`` holds two."""
    hands = ["", "", ""]
    hands[pair_seat] = last * 2
    scripted = kawuxing_game(hands)
    tiles = list(scripted.table.wall.tiles)
    wall = scripted.table.wall
    index = next(i for i in range(wall.head, wall.tail - 1) if tiles[i] == kind(last))
    tiles[index], tiles[wall.tail - 1] = tiles[wall.tail - 1], tiles[index]
    return Game("kawuxing", dealer=0, wall=tiles, claim_window="eligible")


@pytest.mark.rule("KW-6", "KW-7", "KW-27")
def test_kw_6_the_last_tile_is_won_with_or_discarded_and_its_discard_not_claimed():
    game = _last_tile_game("9s", pair_seat=0)
    while game.table.wall.live > 0:
        if game.current.phase == "turn":
            seat = game.current.seats[0]
            game.apply(Action("discard", seat, game.table.drawn))
        pass_all(game)
    assert game.current.seats == (2,) and game.table.drawn == kind("9s")
    legal = game.legal_actions(2)
    assert {a.tile for a in legal if a.kind == "discard"} == {kind("9s")}  # KW-6: discard it as drawn
    assert not any(a.kind == "kong" for a in legal)  # KW-7: no replacement left
    game.apply(Action("discard", 2, kind("9s")))
    pass_all(game)  # P0 holds 9s9s: no 碰 on the final discard
    assert game.table.hands[0][kind("9s")] == 2
    assert game.over and game.result.drawn
    assert not any(e.type == "pung" for e in game.events)


@pytest.mark.rule("KW-16")
def test_kw_16_liangdao_right_after_a_pung_and_only_when_ready():
    game = kawuxing_game(["5p7z", "", "55p123s456s789s77s"])
    assert not _flagged(game, 0)  # the dealer's filler hand is far from ready
    do(game, "discard", 0, "5p")
    answer(game, P2=Action("pung", 2, kind("5p")))
    flagged = _flagged(game, 2)
    hand = game.table.hands[2]
    forms = hupai.rules.get("kawuxing").win_forms
    for tile in (k for k in range(34) if hand[k]):
        counts = bytearray(hand)
        counts[tile] -= 1
        assert (tile in flagged) == bool(hupai.waits(counts_to_kinds(counts), melds=1, forms=forms))
    assert kind("7s") in flagged  # a single wait on 7s


def _flagged(game: Game, seat: int) -> set[int]:
    return {a.tile for a in game.legal_actions(seat) if a.kind == "discard" and a.flag == "liangdao"}
