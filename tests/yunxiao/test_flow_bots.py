"""Bots at a Yunxiao table: golds as jokers and 游金 declarations (issue: "GreedyBot knows how to use golds
and when to declare 游金"). GreedyBot asks Yunxiao's advice (``rules/yunxiao/advice.py``), over its observation:
``shanten`` (golds as jokers, 白板 as G), ``premium_discards`` (into the 游 shape) and ``prefers_own_draw``
(YX-6, YX-7, YX-25..YX-27)."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hupai.bots import GreedyBot
from hupai.game import Action, Game, play
from hupai.rules import advice
from hupai.rules.yunxiao import YunxiaoRules

from .flow_helpers import T, discard_drawn, yx_game

ADVICE = advice("yunxiao")


def test_yx_6_shanten_batch_counts_golds_as_jokers_and_white_as_gold_face():
    """YX-6 / YX-7: for bots, a gold is a joker and a 白板 is G: with G=5m, 123m456m789p11z 4m 5z 5m is
    complete (the 白板 as 5m, the gold as 6m); with 9s for the 白板 it is one tile away."""
    game = yx_game(["123m456m789p11z4m5z5m", "", "", ""], "5m")
    observation = game.observation(0)
    hand = np.frombuffer(observation.counts, dtype=np.uint8)[None, :]
    assert ADVICE.shanten(observation, hand, 0).tolist() == [-1]
    hand = hand.copy()
    hand[0, T("5z")] = 0
    hand[0, T("9s")] = 1
    assert ADVICE.shanten(observation, hand, 0).tolist() == [0]
    # Ranking the discards counts the same way (its rows are built apart, as bytes): -shanten after each.
    whole = np.frombuffer(observation.counts, dtype=np.uint8)
    for tiles in (("5z", "5m", "1m", "1z"), ("9p", "5m")):
        discards = [Action("discard", 0, T(tile)) for tile in tiles]
        rows = np.repeat(whole[None, :], len(discards), axis=0)
        rows[np.arange(len(discards)), [a.tile for a in discards]] -= 1
        assert ADVICE.rank_discards(observation, discards) == [-v for v in ADVICE.shanten(observation, rows, 0)]


def test_yx_25_you_discards_offer_the_you_shape():
    """YX-25 / YX-E4: with 123m456m789p9s111z5p (G=5p) discarding 9s leaves the 游 shape."""
    game = yx_game(["", "", "123m456m789p111z5p", ""], "5p", draws="6z9s")
    discard_drawn(game, 2)
    game.apply(Action("pass", 2))
    assert game.rules.you_discards(game.table, 2) == [T("9s")]


def test_yx_27_greedy_bots_win_by_you_jin():
    """Simulated games: GreedyBot uses its golds, reaches the 游 shape and declares 游金 (YX-27)."""
    rules = YunxiaoRules()
    events: Counter[str] = Counter()
    for seed in range(100):
        game = Game(rules, seed=seed, dealer=seed % 4)
        result = play(game, [GreedyBot(seed * 4 + i) for i in range(4)])
        assert sum(result.payments) == 0
        events[result.wins[0].score.details["event"] if result.wins else "drawn"] += 1
    assert events["you_jin"] >= 8, events


def test_yx_31_greedy_takes_tian_hu_rather_than_a_you_discard():
    """YX-31 / YX-38: a dealt winning hand (天胡, 10 each) is won at once, not discarded into the 游 shape."""
    game = yx_game(["123m456m789p111z5p9s", "", "", ""], "5p")
    assert game.current.seats == (0,)
    assert ADVICE.premium_discards(game.observation(0)) == ()
    action = GreedyBot(0).act(game.observation(0))
    assert action.kind == "win"


def test_yx_25_premium_discards_name_the_you_shape_discards_gold_first():
    """YX-25 / YX-26: from its observation alone the advice finds the 游 discards the rules find."""
    game = yx_game(["", "", "123m456m789p111z5p", ""], "5p", draws="6z9s")
    discard_drawn(game, 2)
    game.apply(Action("pass", 2))
    assert ADVICE.premium_discards(game.observation(2)) == tuple(game.rules.you_discards(game.table, 2))


def test_yx_12_a_gold_holder_lets_a_discard_win_pass_while_the_wall_is_long():
    """The patience rule reads the reserve from the public options (YX-12) and the gold from the extras."""
    game = yx_game(["123m456m789p11z4m5z5m", "", "", ""], "5m")
    observation = game.observation(0)
    assert observation.counts[T("5m")] and ADVICE.prefers_own_draw(observation)
    long_reserve = yx_game(["123m456m789p11z4m5z5m", "", "", ""], "5m",
                           options={"wall_end_reserve": [80, 80, 80]}).observation(0)
    assert not ADVICE.prefers_own_draw(long_reserve)
