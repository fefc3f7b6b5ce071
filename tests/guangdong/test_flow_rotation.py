"""Guangdong dealer and round rotation (GD-31, GD-6) and the worked example GD-E18; matches (hupai.Match)."""

from types import SimpleNamespace

import hupai
from hupai.bots import GreedyBot
from hupai.game import HandResult, Match
from hupai.game.state.table import Table
from hupai.game.state.wall import Wall

RULES = hupai.rules.get("guangdong")


def next_dealer(dealer: int, winners: tuple[int, ...]) -> int:
    return RULES.next_dealer(Table(4, dealer, 0, 0, (0, 1, 2, 3), Wall([])), winners)


def test_gd_31_dealer_rotation():
    """GD-31: the dealer repeats if it won (alone or with others) or on a drawn hand; else its 下家 deals."""
    assert next_dealer(0, (0,)) == 0
    assert next_dealer(0, (1, 0)) == 0
    assert next_dealer(0, ()) == 0
    assert next_dealer(0, (2,)) == 1
    assert next_dealer(3, (1,)) == 0


def test_gd_6_round_wind_progression():
    """GD-6: the round wind advances when the deal passes on from the first dealer's 上家; 北 ends it."""
    assert RULES.next_round(0, 3, 0, 0) == (1, False)
    assert RULES.next_round(0, 3, 3, 0) == (0, False)
    assert RULES.next_round(1, 1, 2, 2) == (2, False)
    assert RULES.next_round(3, 1, 2, 2) == (4, True)


def _fake(match: Match, next_dealer_: int, winners=()) -> SimpleNamespace:
    """A finished hand of ``match`` (its rules and setup: Match.record refuses another table's game)."""
    setup = {"dealer": match.dealer, "round_wind": match.round_wind, "first_dealer": match.first_dealer}
    return SimpleNamespace(rules=match.rules, setup=setup, claim_window=match.claim_window,
                           result=HandResult(tuple(winners), (), (0, 0, 0, 0), next_dealer_, not winners))


def test_gd_e18_rotation_example():
    """GD-E18: P0 deals in 东; P2 wins → P1 deals; drawn → P1 again; P3 deals, another wins → P0, 南 round."""
    match = Match("guangdong", seed=1, first_dealer=0)
    assert (match.dealer, match.round_wind) == (0, 0)
    match.record(_fake(match, next_dealer(0, (2,)), (2,)))
    assert (match.dealer, match.round_wind) == (1, 0)
    match.record(_fake(match, next_dealer(1, ())))
    assert (match.dealer, match.round_wind) == (1, 0)
    match.record(_fake(match, next_dealer(1, (3,)), (3,)))
    match.record(_fake(match, next_dealer(2, (0,)), (0,)))
    assert (match.dealer, match.round_wind) == (3, 0)
    match.record(_fake(match, next_dealer(3, (1,)), (1,)))
    assert (match.dealer, match.round_wind) == (0, 1)


def test_gd_6_gd_31_a_played_match():
    """A whole match with GreedyBots: rotation per GD-31, rounds per GD-6, scores are the payment sums, each
    hand dealt from its own seed, and the match ends after the 北 round."""
    match = Match("guangdong", seed=42)
    players = [GreedyBot(i) for i in range(4)]
    seeds = set()
    totals = [0, 0, 0, 0]
    while not match.over and match.hand_index < 400:
        dealer, round_wind = match.dealer, match.round_wind
        game = match.new_game()
        seeds.add(game.setup["seed"])
        assert game.table.dealer == dealer and game.table.round_wind == round_wind
        assert game.table.seat_winds[dealer] == 0  # GD-5 dealer_east
        hupai.game.play(game, players)
        result = match.record(game)
        totals = [a + b for a, b in zip(totals, result.payments, strict=True)]
        expected = dealer if (dealer in result.winners or result.drawn) else (dealer + 1) % 4
        assert match.dealer == expected
        if match.dealer == match.first_dealer and dealer != match.first_dealer:
            assert match.round_wind == round_wind + 1
        else:
            assert match.round_wind == round_wind
    assert match.over and match.round_wind == 4
    assert match.scores == totals and sum(match.scores) == 0
    assert len(seeds) == match.hand_index
