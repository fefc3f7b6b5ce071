"""Yunxiao turn structure and session rules not covered elsewhere: YX-4, YX-10, YX-19, YX-24."""

from __future__ import annotations

import hupai
from hupai.bots import RandomBot
from hupai.game import Action, Game, Match, play

from .flow_helpers import T, discard_drawn, yx_game


def test_yx_4_first_dealer_is_drawn_from_the_seed():
    """YX-4: the first dealer is random, drawn from the match seed: the same seed gives the same dealer, and
    the seats all deal first for some seed."""
    dealers = [Match("yunxiao", seed=seed).first_dealer for seed in range(40)]
    assert dealers == [Match("yunxiao", seed=seed).first_dealer for seed in range(40)]
    assert set(dealers) == {0, 1, 2, 3}


def test_yx_10_turn_draws_then_discards():
    """YX-9 / YX-10: the dealer's first turn has no draw; each following seat draws once, then discards, and
    play passes to its 下家."""
    game = yx_game(["123m456m789p1112z", "13579m2468p3567z", "99p1357s2468s345z", "2468m13579s4677z"], "9s",
                   draws="4z5z6z")
    events = [e for e in game.events if e.type == "draw"]
    assert events == []  # the dealer starts with 14 tiles and no draw
    game.apply(Action("discard", 0, T("2z")))
    # Nobody can claim 2z here, so P1 draws (its first normal draw) and must discard.
    assert game.current.seats == (1,) and game.current.phase in ("turn", "predraw")
    discard_drawn(game)  # P1 discards what it drew
    seat = game.current.seats[0]
    assert seat == 2
    assert [e.seat for e in game.events if e.type == "draw"] == [1, 2]


def test_yx_19_you_states_restrict_wins_on_others_tiles():
    """YX-19 / YX-28: a 单游 player may not win on another player's tile; at 双游 nobody may."""
    from hupai.rules.yunxiao.patterns import you_state_allows

    assert not you_state_allows("discard", 1, [0, 1, 0, 0])
    assert you_state_allows("discard", 2, [0, 1, 0, 0])
    assert not you_state_allows("discard", 2, [0, 2, 0, 0])
    assert you_state_allows("self_draw", 2, [0, 2, 0, 0])


def test_yx_24_kongs_pay_nothing():
    """YX-24: there is no kong money: over random games, every hand without a win has all-zero payments,
    kongs or not."""
    rules = hupai.rules.get("yunxiao")
    drawn_with_kongs = 0
    for seed in range(150):
        game = Game(rules, seed=seed, dealer=seed % 4)
        result = play(game, [RandomBot(seed * 4 + i) for i in range(4)])
        if not result.winners:
            assert result.payments == (0, 0, 0, 0)
            drawn_with_kongs += game.table.extras["kongs"] > 0
    assert drawn_with_kongs > 0  # the property was exercised
