"""Yunxiao's advice reads the shanten after every discard from one core call
(``_core.yunxiao_discard_shanten``) and looks for 游 discards (YX-25) only among the discards that leave a ready
hand: the same answers as the row-by-row shanten (``shanten_batch``, golds as jokers and 白板 as G, YX-6 / YX-7)
and the exhaustive 游 search (``you_shape_discards_of``), on the hands GreedyBot and RandomBot meet in play."""

from __future__ import annotations

import numpy as np
import pytest
from hupai import _core
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game
from hupai.rules import advice
from hupai.rules.base_advice import ANY_KIND
from hupai.rules.yunxiao import YunxiaoRules
from hupai.rules.yunxiao.hand import WHITE
from hupai.rules.yunxiao.patterns import you_shape_discards_of

ADVICE = advice("yunxiao")


def _turn_observations(games: int):
    """Observations of seats in their turn (a winning-size hand), over seeded games of both bots."""
    rules = YunxiaoRules()
    for seed in range(games):
        game = Game(rules, seed=seed, dealer=seed % 4, claim_window="eligible")
        bots = [(GreedyBot if seed % 2 else RandomBot)(seed * 4 + i) for i in range(4)]
        while not game.over:
            for seat in game.current.seats:
                observation = game.observation(seat)
                if observation.phase == "turn":
                    yield observation
                game.apply(bots[seat].act(observation))


def _reference_ranking(observation, discards):
    """The ranking as it was built before: one row per discard, shanten_batch with per-row jokers."""
    gold = observation.extras["gold"]
    physical = np.frombuffer(observation.counts, dtype=np.uint8)
    rows = np.repeat(physical[None, :], len(discards), axis=0)
    rows[np.arange(len(discards)), [a.tile for a in discards]] -= 1
    jokers = rows[:, gold].astype(np.int32)
    natural = rows.copy()
    natural[:, gold] = rows[:, WHITE] if gold != WHITE else 0
    if gold != WHITE:
        natural[:, WHITE] = 0
    melds = len(observation.melds[observation.seat])
    shanten = _core.shanten_batch(natural, jokers, melds, int(YunxiaoRules.win_forms), ANY_KIND, 1)
    return [-value for value in shanten.tolist()]


def test_yx_6_yx_7_discard_ranking_matches_row_by_row_shanten():
    """YX-6 / YX-7: the ranking from one core call equals one shanten_batch row per discard, on every turn of
    40 played hands (gold discards, 白板 discards and 白板 golds included)."""
    seen = {"gold": 0, "white": 0}
    for observation in _turn_observations(40):
        discards = [a for a in observation.legal_actions if a.kind == "discard" and not a.flag]
        if not discards:
            continue
        gold = observation.extras["gold"]
        seen["gold"] += any(a.tile == gold for a in discards)
        seen["white"] += any(a.tile == WHITE for a in discards)
        assert ADVICE.rank_discards(observation, discards) == _reference_ranking(observation, discards)
    assert seen["gold"] > 50 and seen["white"] > 50, seen


def test_yx_25_premium_discards_match_the_exhaustive_you_search():
    """YX-25 / YX-26: the 游 discards found among the discards that leave a ready hand are exactly those the
    exhaustive search finds (every held kind tried), a gold first."""
    found = 0
    for observation in _turn_observations(150):
        if observation.drawn_from == "dealt":
            continue
        gold = observation.extras["gold"]
        counts = observation.counts
        expected: tuple[int, ...] = ()
        if counts[gold] and sum(counts) == 14 - 3 * len(observation.melds[observation.seat]):
            kinds = you_shape_discards_of(bytes(counts), gold, observation.own_melds)
            expected = tuple(sorted(kinds, key=lambda kind: kind != gold))
        assert ADVICE.premium_discards(observation) == expected
        found += bool(expected)
    assert found >= 10, found


def test_discard_shanten_is_shanten_of_each_row():
    """The core call's 35 entries: shanten after each held kind's discard, then after a joker's; 127 where
    nothing is held."""
    counts = bytearray(34)
    for kind in (0, 1, 2, 9, 10, 18, 18, 27, 27, 27, 33):
        counts[kind] += 1
    after = _core.discard_shanten(bytes(counts), 3, 0, 1, ANY_KIND)
    assert len(after) == 35
    for kind in range(34):
        if not counts[kind]:
            assert after[kind] == 127
            continue
        row = bytearray(counts)
        row[kind] -= 1
        assert after[kind] == _core.shanten(bytes(row), jokers=3, melds=0)
    assert after[34] == _core.shanten(bytes(counts), jokers=2, melds=0)
    counts[5] += 3  # the same size with no joker: nothing to discard at 34
    assert _core.discard_shanten(bytes(counts), 0, 0, 1, ANY_KIND)[34] == 127


def test_discard_shanten_refuses_a_bad_hand():
    with pytest.raises(Exception, match="count|tiles|hand"):
        _core.discard_shanten(bytes([5] + [0] * 33), 0, 0, 1, ANY_KIND)

