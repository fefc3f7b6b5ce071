"""Playing advice for a 息-seeking Wai Huzi bot (``hupai.rules.advice("waihuzi")``), over plain data."""

from __future__ import annotations

import hupai
import numpy as np
import pytest
from hupai import zipai
from hupai.errors import HupaiError
from hupai.rules.waihuzi.advice import Judgement, WaihuziAdvice, shape, suit_shape

E3_HAND = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"  # WH-E3: waits on x1 and d3


def card(name: str) -> int:
    return zipai.parse(name)[0]


def test_the_registry_gives_the_advice_and_one_per_option_set() -> None:
    advice = hupai.rules.advice("waihuzi")
    assert isinstance(advice, WaihuziAdvice) and advice.options["min_huxi"] == 5
    strict = WaihuziAdvice.for_rules(hupai.rules.get("waihuzi", min_huxi=6, xingxingxi="strict"))
    assert strict.options == {"min_huxi": 6, "xingxingxi": "strict", "daxiaozihu": True, "extra_mingtang": False}


@pytest.mark.rule("WH-7", "WH-8", "WH-9")
def test_shape_counts_groups_partials_and_xi() -> None:
    small = zipai.to_counts("x1 x2 x3 x5 x5 x5 x2 x7 x10")
    assert suit_shape(small[:10].tobytes()) == (3, 0, 4)  # 句, 坎 3 息, 二七十 1 息
    assert suit_shape(zipai.to_counts("x2 x7 x9 x9")[:10].tobytes()) == (0, 2, 2)  # 门子 x2x7 1 息, pair 1 息
    assert shape(zipai.to_counts(E3_HAND + " d3"), 6) == (0, 5)  # complete: nothing lacking, 5 息
    assert shape(zipai.to_counts(E3_HAND), 6)[0] == 1  # ready
    assert shape(zipai.to_counts("x1 x3 x5 x8 d1 d3 d5 d8 d10 x10"), 6)[0] > 5


@pytest.mark.rule("WH-30", "WH-32")
def test_judge_weighs_waits_by_unseen_copies_and_score() -> None:
    advice = WaihuziAdvice()
    # x1: 2 copies unseen, 8 self-drawn; d3: 4 unseen, 5 either way
    assert advice.judge(E3_HAND) == Judgement(2 * 8 + 4 * 5, -1, 5)
    assert advice.judge(E3_HAND, unseen=bytes(20)).wait_value == 0
    assert WaihuziAdvice(min_huxi=6).judge(E3_HAND).wait_value == 2 * 8  # only the self-drawn x1 wins
    assert advice.judge(E3_HAND) > advice.judge("x1 x3 x5 x8 x9 d1 d3 d5 d8 d10 x10 x2 x4 d2 d4 d7 d9 x6 d6")


@pytest.mark.rule("WH-26")
def test_discard_keeps_the_wait_and_respects_locked_cards() -> None:
    advice = WaihuziAdvice()
    counts = zipai.to_counts(E3_HAND + " x4")
    assert advice.discard(counts) == card("x4")
    assert advice.discard(counts.tobytes()) == card("x4")
    ranked = advice.rank_discards(counts, forbidden=[card("x4")])
    assert card("x4") not in ranked and len(ranked) == int(np.count_nonzero(counts)) - 1
    assert advice.discard(counts, forbidden=[card("x4")]) != card("x4")
    with pytest.raises(HupaiError, match="locked"):
        advice.discard(zipai.to_counts("x4 x4"), forbidden=[card("x4")])


@pytest.mark.rule("WH-9", "WH-14", "WH-15")
def test_claims() -> None:
    advice = WaihuziAdvice()
    for action in ("win", "liu", "wai"):
        assert advice.claim(action, E3_HAND, card("x5")) is True
    peng = [zipai.Declared.peng(card("d3"))]
    assert advice.claim("piao", "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6", card("d3"), peng) is True
    # Turning a 坎 (3 息) into a 飘 (1 息) of a ready hand loses 息 and changes no wait: declined.
    assert advice.claim("piao", E3_HAND, card("x5")) is False
    assert isinstance(advice.claim("peng", E3_HAND, card("x1")), bool)
    assert isinstance(advice.claim("chi", E3_HAND, card("d3"), menzi=(card("d1"), card("d2"))), bool)
    with pytest.raises(HupaiError, match="unknown Wai Huzi claim"):
        advice.claim("kong", E3_HAND, card("x1"))
    with pytest.raises(HupaiError, match="cannot peng"):
        advice.claim("peng", E3_HAND, card("x3"))
    with pytest.raises(HupaiError, match="门子"):
        advice.claim("chi", E3_HAND, card("d3"))


def test_a_chow_that_completes_a_wait_is_taken_and_a_useless_peng_is_not() -> None:
    advice = WaihuziAdvice()
    # Two 门子 away from ready: chowing x3 onto x1x2 leaves a ready hand (after discarding d10).
    hand = "x1 x2 x5 x5 x5 x6 x7 x8 d1 d1 d1 d4 d5 d6 d7 d8 d9 d10 x10"
    assert advice.claim("chi", hand, card("x3"), menzi=(card("x1"), card("x2"))) is True
    # A pair inside a ready hand's only 2-card unit: taking it breaks the wait.
    assert advice.claim("peng", E3_HAND, card("x7")) is False


@pytest.mark.rule("WH-9", "WH-32", "WH-34")
def test_ev_advice_takes_a_piao_of_three_held_for_its_outer_yuan_while_not_ready() -> None:
    """A 飘 of a 坎 on another seat's card turns 3 息 into 1 (WH-9), so the advice, judging a hand that is not ready
    by its shape and then its 息, declines it; but a 飘 is always 外元 (WH-34), ×2 on whatever the hand wins, and the
    坎 can no longer become a 溜. EVBot's advice takes it where the hand keeps the 5 息 a win needs (WH-32)."""
    advice = WaihuziAdvice()
    hand = zipai.to_counts("x1 x1 x1 d5 d5 d5 x2 x7 x10 x4 d1 d3 d8 d9 x6 x9 d2 d7 d10")  # 坎 坎 二七十: 7 息 and more
    assert advice.judge(hand).wait_value == 0  # not ready
    offers = [("piao", card("x1"), None), ("peng", card("x1"), None)]
    assert advice.claims(offers, hand) == [False, False]
    assert advice.for_ev().claims(offers, hand) == [True, False]
    assert advice.for_ev().claim("piao", hand, card("x1")) is True
    # a hand of one 坎 and 4 息 would keep 2 息 after the 飘: short of a win's 5, it keeps its 坎 (and takes the 碰
    # the advice takes)
    short = zipai.to_counts("x1 x1 x1 x3 x5 x8 x9 d1 d3 d4 d6 d8 d9 d2 d5 x4 d10 x6 d7")
    assert advice.judge(short).xi == 4
    assert advice.for_ev().claims(offers, short) == advice.claims(offers, short) == [False, True]
    # a ready hand's waits already count the 外元: there the advice's answer stands (here it keeps its 坎's 3 息)
    ready = zipai.to_counts(E3_HAND)
    assert advice.judge(ready).wait_value > 0
    assert advice.claims([("piao", card("x5"), None)], ready) == [False]
    assert advice.for_ev().claims([("piao", card("x5"), None)], ready) == [False]


@pytest.mark.rule("WH-35")
def test_ev_advice_gives_up_the_last_red_cards_toward_yidianhong_and_heihuzi() -> None:
    """一点红 is ×4 (one red card) and 黑胡子 ×8 (none): a hand not ready with one or two red cards discards a red
    card where the advice's black discard leaves the shape no closer to a win."""
    advice = WaihuziAdvice()
    hand = zipai.to_counts("x1 x3 x3 x4 x4 x5 x6 x6 x6 x9 d1 d1 d2 d3 d3 d4 d5 d5 d6 d8")  # one red card: d2
    ranked = advice.rank_discards(hand)
    greedy = advice.discard(hand)
    assert greedy not in zipai.RED_KINDS and ranked[card("d2")].closeness == ranked[greedy].closeness
    assert advice.for_ev().discard(hand) == card("d2")


@pytest.mark.rule("WH-9", "WH-34")
def test_ev_advice_takes_a_wai_over_a_liu_where_the_hand_left_is_better() -> None:
    """A self-drawn fourth copy of a 坎 is offered as a 溜 (all four, no discard) and as a 歪 (two held and the
    drawn one, then a discard), both 4 息 (WH-9). The advice takes the 溜 always; EVBot's advice takes the 歪 where
    the hand it leaves after the best discard is ready and worth more, or, neither ready, closer to a win."""
    advice = WaihuziAdvice()
    d3 = card("d3")
    offers = [("liu", d3, None), ("wai", d3, None)]
    # 溜 of d3 leaves a hand two cards from a win; the 歪 lets it give up d5 and be ready
    hand = zipai.to_counts("x4 x5 x6 x6 x6 x9 x9 d3 d3 d3 d4 d5 d5 d7 d8 d9")
    groups = (zipai.Declared.wai(card("x8")),)
    assert advice.claims(offers, hand, groups) == [True, True]  # the flow's order: the 溜 comes first
    assert advice.for_ev().claims(offers, hand, groups) == [False, True]
    # not offered the 歪 (a 臭 card, WH-24), the 溜 stands
    assert advice.for_ev().claims(offers[:1], hand, groups) == [True]
    # neither ready: the 歪 leaves a shape a card closer to a win
    d2 = card("d2")
    far = zipai.to_counts("x3 x5 x6 x7 x7 x8 x8 x10 d1 d1 d2 d2 d2 d4 d6 d7 d9 d9 d10")
    assert advice.for_ev().claims([("liu", d2, None), ("wai", d2, None)], far) == [False, True]
    # a ready hand whose waits are worth as much either way keeps the 溜 (内元 on any win, WH-34)
    x5 = card("x5")
    assert advice.for_ev().claims([("liu", x5, None), ("wai", x5, None)], E3_HAND) == [True, True]


@pytest.mark.rule("WH-9", "WH-12", "WH-34")
def test_ev_advice_keeps_four_held_cards_where_a_discard_leaves_a_better_hand() -> None:
    """A hand in a discard state may declare a 溜 of four held cards in place of its discard (WH-12): 4 息 and 内元
    on any win (WH-34), and GreedyBot always does. It takes four cards from the hand where a discard takes one:
    EVBot's advice keeps them where the hand left after the best discard is ready and its waits worth more."""
    advice = WaihuziAdvice()
    x7, d1 = card("x7"), card("d1")
    ready = zipai.to_counts("x2 x2 x3 x4 x4 x5 x6 x7 x7 x7 x7 x10 d2 d3 d4 d4 d4 d6 d8 d9")
    assert advice.rank_discards(ready)[card("d6")].wait_value > 0  # keeping the four, d6 leaves a ready hand
    assert advice.for_ev().keeps_four(ready, x7) is True
    # neither ready: the 溜's 内元 is sure, so it is declared although keeping the four leaves a closer shape
    closer = zipai.to_counts("x2 x2 x3 x3 x4 x5 x5 x7 x8 x9 x10 d1 d1 d1 d1 d5 d5 d8 d8 d8")
    assert max(advice.rank_discards(closer).values()).closeness > advice.judge(
        np.frombuffer(bytes(closer[:10]) + bytes([0]) + bytes(closer[11:]), dtype=np.uint8),
        (zipai.Declared.liu(d1),)).closeness
    assert advice.for_ev().keeps_four(closer, d1) is False
    # four x5 beside a ready shape: the 溜 leaves it as ready, its waits worth as much or more: declared
    declared = zipai.to_counts("x1 x1 x2 x5 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9")
    assert advice.for_ev().keeps_four(declared, card("x5")) is False
    assert advice.for_ev().keeps_four(ready, card("x2")) is False  # not four held


def test_ev_bot_keeps_four_held_cards_at_a_turn_where_its_advice_says_so() -> None:
    """EVBot asks the advice's ``keeps_four`` at a turn that offers a 溜 of four held cards; GreedyBot declares
    it."""
    from hupai.bots import GreedyBot
    from hupai.ev import EVBot
    from hupai.game import Game

    SEEDS = 100  # seed 79 is the first whose dealer keeps four held cards
    for seed in range(SEEDS):
        game = Game("waihuzi", seed=seed, dealer=0)
        observation = game.observation(0)
        liu = [a for a in observation.legal_actions if a.kind == "liu"]
        if observation.phase != "turn" or not liu:
            continue
        keeps = hupai.rules.advice("waihuzi").for_ev().keeps_four(bytes(observation.counts), liu[0].tile)
        if keeps:
            assert GreedyBot(0).act(observation).kind == "liu"
            assert EVBot(0).act(observation).kind == "discard"
            return
    pytest.fail(f"no dealer's first turn in {SEEDS} deals keeps four held cards")


@pytest.mark.rule("WH-7", "WH-14", "WH-17")
def test_ev_advice_takes_the_best_of_the_chows_and_pungs_it_would_take() -> None:
    """A player takes the first claim its advice accepts, in the flow's order (WH-17): offered x2 as x1x2x3 and as
    二七十, the advice takes both and GreedyBot chows x1x2x3; EVBot's advice takes the one whose hand after its
    discard judges better, here the 二七十 (1 息)."""
    advice = WaihuziAdvice()
    hand = zipai.to_counts("x1 x1 x1 x2 x3 x5 x6 x6 x7 x8 x9 x9 x10 d6 d6 d7 d8 d9 d10")
    x2 = card("x2")
    offers = [("chi", x2, (card("x1"), card("x3"))), ("chi", x2, (card("x7"), card("x10")))]
    assert advice.claims(offers, hand) == [True, True]
    assert advice.for_ev().claims(offers, hand) == [False, True]
    assert advice.for_ev().claims(offers[:1], hand) == [True]  # one taken: the advice's answer stands
    # the judgements it compares come with the advice's answers, from the same call to the core
    answers, after = advice.judged_claims([("win", x2, None), *offers], hand)
    assert answers == [True, True, True] and after[0] is None
    assert after[1] is not None and after[2] is not None and after[2] > after[1]
