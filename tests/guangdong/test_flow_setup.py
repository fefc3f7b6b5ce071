"""Guangdong setup and turn flow: tiles and players (GD-1, GD-2), the deal (GD-4), seat winds (GD-5), the
dealer's first turn (GD-7), the wall end (GD-8), no kong money (GD-13), drawn hands (GD-30)."""

from collections import Counter

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Action, Game
from hupai.game.scripted import discard, discard_drawn, stacked_game


def test_gd_1_gd_2_tiles_and_players():
    """GD-1: 136 tiles, four of each of the 34 kinds, no flowers; GD-2: four players."""
    rules = hupai.rules.get("guangdong")
    assert Counter(rules.tiles()) == Counter({kind: 4 for kind in range(34)})
    assert rules.num_players == 4
    assert "guangdong" in hupai.rules.names()


def test_gd_4_deal_sizes_and_wall():
    """GD-4: the dealer gets 14, the others 13; 83 tiles are left in the wall."""
    for dealer in range(4):
        game = Game("guangdong", seed=dealer, dealer=dealer)
        sizes = [sum(game.table.hands[seat]) for seat in range(4)]
        assert sizes == [14 if seat == dealer else 13 for seat in range(4)]
        assert game.table.wall.live == 83
        assert game.current == ("turn", (dealer,), game.table.drawn, dealer)


def test_gd_5_seat_winds():
    """GD-5: dealer_east makes the dealer 东; fixed keeps the winds of the first deal."""
    game = Game("guangdong", dealer=2, first_dealer=0)
    assert game.table.seat_winds == (2, 3, 0, 1)
    fixed = Game("guangdong", dealer=2, first_dealer=0, options={"seat_wind": "fixed"})
    assert fixed.table.seat_winds == (0, 1, 2, 3)


def test_gd_7_dealer_starts_without_drawing_and_claims_skip_the_draw():
    """GD-7: no draw event before the dealer's first discard; after a 碰 the claimant discards at once."""
    game = Game("guangdong", seed=5)
    assert [e.type for e in game.events] == ["deal"] * 5
    first = next(a for a in game.legal_actions(0) if a.kind == "discard")
    game.apply(first)
    while game.current.phase == "claim":
        game.apply(Action("pass", game.current.seats[0]))
    assert game.events[-1].type == "draw" and game.events[-1].seat == 1


def _play_watching(seed: int, bots, options=None, watch=None) -> Game:
    game = Game("guangdong", seed=seed, options=options)
    players = [bots(seed * 4 + i) for i in range(4)]
    while not game.over:
        if watch:
            watch(game)
        seat = game.current.seats[0]
        game.apply(players[seat].act(game.observation(seat)))
    return game


@pytest.mark.parametrize("reserve", [0, 14])
def test_gd_8_wall_end(reserve):
    """GD-8: once no draw can follow, a discard may only be won on, and no kong may be declared; a hand that
    runs out ends drawn (GD-30: no payments, GD-13: no kong money either)."""
    seen_last = 0

    def watch(game: Game) -> None:
        nonlocal seen_last
        table = game.table
        if table.wall.live > reserve:
            return
        for seat in game.current.seats:
            for action in game.legal_actions(seat):
                assert action.kind != "kong"
                if game.current.phase == "claim":
                    assert action.kind in ("win", "pass")
        seen_last += 1

    drawn = 0
    for seed in range(30):
        game = _play_watching(seed, RandomBot, {"wall_reserve": reserve}, watch)
        assert game.table.wall.live >= reserve
        if game.result.drawn:
            drawn += 1
            assert game.table.wall.live == reserve
            assert game.result.payments == (0, 0, 0, 0)
            assert game.result.next_dealer == game.table.dealer  # GD-31
    assert drawn > 20 and seen_last > 0


def test_gd_8_last_discard_can_be_won_on():
    """GD-8: the final discard is won on (no 吃/碰 offered with it)."""
    hands = ["9m2z3z4z5z6z7z1p9p1m8m7s8s9s", "123m456p789s11z23s", "", "44s"]
    game = stacked_game(hands, draws="4z4z4z5z5z5z4s", options={"wall_reserve": 76})
    discard(game, "9m")
    discard_drawn(game, 6)   # P1 P2 P3 P0 P1 P2; P3 draws the last tile 4s and discards it
    assert game.current == ("turn", (3,), 21, 3)
    game.apply(Action("discard", 3, 21))
    assert game.current.seats == (1,)
    assert {a.kind for a in game.legal_actions(1)} == {"win", "pass"}
    game.apply(Action("pass", 1))
    assert game.result.drawn and game.result.payments == (0, 0, 0, 0)


def test_gd_30_drawn_hands_pay_nothing():
    """GD-30 over random games: drawn hands have no payments."""
    for seed in range(20):
        game = _play_watching(seed, RandomBot)
        if game.result.drawn:
            assert game.result.payments == (0, 0, 0, 0)


def test_gd_13_no_kong_money():
    """GD-13: kongs never move points during the hand."""
    kongs = 0
    for seed in range(30):
        game = _play_watching(seed, GreedyBot if seed % 2 else RandomBot)
        kongs += sum(1 for e in game.events if e.type == "kong")
        assert game.table.payments == [0, 0, 0, 0]
        assert not any(e.type == "payment" for e in game.events)
    assert kongs > 0
