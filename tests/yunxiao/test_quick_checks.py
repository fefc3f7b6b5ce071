"""The counts-only quick checks the Yunxiao rule object asks before building a hand (``may_wait``,
``may_be_you_shape``): each is a necessary condition, so a False from it must mean the exact answer is empty or
False too (YX-25 游 shape, YX-32..35 waits), and the readiness the engine caches must be the exact one."""

from __future__ import annotations

import random

import pytest
from hupai.analysis import fits_with_jokers
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game
from hupai.rules.yunxiao import YunxiaoRules
from hupai.rules.yunxiao.hand import YunxiaoHand
from hupai.rules.yunxiao.patterns import (
    hand_waits,
    is_complete,
    may_be_you_shape,
    may_wait,
    you_shape_discards_of,
    you_shape_of,
)

from .helpers import kind, tiles


def _counts(kinds: tuple[int, ...]) -> bytes:
    counts = bytearray(34)
    for k in kinds:
        counts[k] += 1
    return bytes(counts)


@pytest.mark.parametrize(("concealed", "gold"), [
    ("123m456m789p5s111z", "9s"),  # YX-32 a single wait
    ("123p789p11z46m123s", "5m"),  # YX-7 a 白板 as the gold's face
    ("19m19p19s1234567z", "3m"),   # YX-34 幺九 (no structured wait)
    ("147m258p369s1234z", "9m"),   # YX-35 不搭 (no structured wait)
    ("1122m3344p5566s7z", "8s"),   # YX-33 seven pairs
])
def test_may_wait_yx_32_to_35_sees_every_form(concealed: str, gold: str) -> None:
    counts, g = _counts(tiles(concealed)), kind(gold)
    assert hand_waits(YunxiaoHand.from_counts(counts, g))
    assert may_wait(counts, g, 0, False)


def test_may_wait_false_on_a_hand_far_from_ready() -> None:
    counts = _counts(tiles("12m45m78p23s56s123z"))
    assert not may_wait(counts, kind("9s"), 0, False) and not hand_waits(YunxiaoHand.from_counts(counts, kind("9s")))


def _table_hands(games: int) -> list[tuple[bytes, int, tuple, int]]:
    """Every waiting hand (counts, gold, melds) and winning-size hand met in seeded games of both bots."""
    rules = YunxiaoRules()
    seen = []
    for seed in range(games):
        game = Game(rules, seed=seed, claim_window="eligible")
        bots = [(GreedyBot if seed % 2 else RandomBot)(seed + s) for s in range(4)]
        while not game.over:
            table = game.table
            for seat in range(4):
                seen.append((bytes(table.hands[seat]), table.extras["gold"], tuple(table.melds[seat]), seat))
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
    return seen


def _reference_you_shape(hand: YunxiaoHand) -> bool:
    """YX-25 from the hand object alone: a gold floats, the rest (other golds within YX-8 room) form the melds
    still needed, or six pairs with nothing declared."""
    if hand.golds < 1 or hand.size != 3 * hand.sets_needed + 1:
        return False
    counts, room = bytes(hand.counts), bytes(hand.room())
    return (fits_with_jokers(counts, hand.golds - 1, hand.sets_needed, 0, room)
            or (not hand.melds and fits_with_jokers(counts, hand.golds - 1, 0, 6, room)))


def test_quick_checks_are_necessary_conditions_on_played_hands() -> None:
    waiting = shaped = ready = discards = 0
    for counts, gold, melds, _ in _table_hands(40):
        size = sum(counts)
        if size == 13 - 3 * len(melds):
            exact = hand_waits(YunxiaoHand.from_counts(counts, gold, melds))
            quick = may_wait(counts, gold, len(melds), False)
            assert quick or not exact, (counts, gold, melds)
            waiting += 1
            ready += bool(exact)
            shape = _reference_you_shape(YunxiaoHand.from_counts(counts, gold, melds))
            assert may_be_you_shape(counts, gold, len(melds)) or not shape, (counts, gold, melds)
            assert you_shape_of(counts, gold, melds) == shape, (counts, gold, melds)
            shaped += shape
        elif size == 14 - 3 * len(melds):
            hand = YunxiaoHand.from_counts(counts, gold, melds)
            expected = [k for k in sorted(set(hand.concealed)) if _reference_you_shape(hand.minus(k))]
            assert you_shape_discards_of(counts, gold, melds) == expected, (counts, gold, melds)
            discards += bool(expected)
    assert waiting > 1000 and ready > 20 and shaped > 0 and discards > 0  # the cases that matter are met


def test_engine_readiness_is_the_exact_one() -> None:
    """The readiness the rule object gives the engine (YX-29: two golds held, else a wait) equals the one
    computed from the exact waits, for random hands of every size the engine asks about."""
    rules = YunxiaoRules()
    rng = random.Random(5)
    wall = [k for k in range(34) for _ in range(4)]
    table = Game(rules, seed=1, claim_window="eligible").table  # seat 1: not the turn seat, no melds
    agree = 0
    for _ in range(3000):
        gold = rng.randrange(34)
        counts = _counts(tuple(rng.sample(wall, 13)))
        table.extras["gold"] = gold
        table.hands[1][:] = counts
        exact = counts[gold] >= 2 or bool(hand_waits(YunxiaoHand.from_counts(counts, gold)))
        assert rules.ready(table, 1) == exact
        agree += exact
    assert agree > 0


def test_own_draw_completes_exactly_when_the_hand_is_complete() -> None:
    """YX-29, YX-32..35: on every draw of 60 played games, ``completes`` (the drawn tile among the waits of the
    hand before it) says what the whole hand's forms say."""
    rules = YunxiaoRules()
    wins = checked = 0
    for seed in range(60):
        game = Game(rules, seed=seed, claim_window="eligible")
        bots = [(GreedyBot if seed % 2 else RandomBot)(seed + s) for s in range(4)]
        while not game.over:
            table = game.table
            seat = game.seats_to_act[0]
            if table.phase == "turn" and table.drawn >= 0:
                gold = table.extras["gold"]
                hand = bytes(table.hands[seat])
                whole = hand[gold] >= 3 or is_complete(YunxiaoHand.from_counts(hand, gold, table.melds[seat]))
                expected = rules.ready(table, seat) and whole
                assert rules.completes(table, seat, table.drawn, True) == expected, (hand, gold, table.drawn)
                checked += 1
                wins += expected
            game.apply(bots[seat].act(game.observation(seat)))
    assert checked > 1000 and wins > 5
