"""The Wai Huzi advice judged in the C++ core (issue 21): the same judgements and choices as the pure-Python
reference it replaced (``reference_advice.py``), the same GreedyBot hands as the 606392f build played, and
hostile arrays refused with :class:`hupai.InvalidHand`."""

from __future__ import annotations

import gzip
import itertools
import random
from pathlib import Path
from typing import Any

import hupai
import numpy as np
import pytest
from hupai import _core, zipai
from hupai.bots import GreedyBot
from hupai.errors import HupaiError, InvalidHand
from hupai.game import Game, play
from hupai.rules.waihuzi.advice import Judgement, WaihuziAdvice, suit_shape
from hupai.zipai import Declared
from hypothesis import given, settings
from hypothesis import strategies as st

from . import reference_advice as ref

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GREEDY_LOGS = FIXTURES / "waihuzi_greedy_v1.jsonl.gz"
OPTION_SETS: list[dict[str, Any]] = [
    {}, {"min_huxi": 8}, {"min_huxi": 3, "xingxingxi": "strict", "extra_mingtang": True}, {"daxiaozihu": False}]


# ------------------------------------------------------------------ GreedyBot plays as the 606392f build did


def test_greedy_hands_replay_the_606392f_build_byte_for_byte() -> None:
    """tests/fixtures/make_waihuzi_greedy_logs.py recorded these with the pure-Python advice."""
    import sys

    sys.path.insert(0, str(FIXTURES))
    try:
        import make_waihuzi_greedy_logs as maker
    finally:
        sys.path.remove(str(FIXTURES))
    with gzip.open(GREEDY_LOGS, "rt", encoding="utf-8") as lines:
        recorded = [line.rstrip("\n") for line in lines]
    assert len(recorded) == maker.HANDS
    for index, text in enumerate(recorded):
        assert maker.log_of(index) == text, f"Wai Huzi greedy hand {index} plays differently"


# ------------------------------------------------------------------ the shape table against the search


def _size_vectors(cards: int) -> Any:
    """Every size's counts (10 values, each 0..4) holding exactly ``cards`` cards."""
    for cut in itertools.combinations(range(cards + 9), 9):
        counts = [b - a - 1 for a, b in zip((-1, *cut), (*cut, cards + 9), strict=True)]
        if max(counts) <= 4:
            yield bytes(counts)


@pytest.mark.rule("WH-7", "WH-8", "WH-9")
def test_suit_shape_matches_the_search_on_every_small_size() -> None:
    checked = 0
    for cards in range(8):
        for values in _size_vectors(cards):
            assert suit_shape(values) == ref.suit_shape(values), values
            checked += 1
    assert checked > 15_000


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=10, max_size=10))
def test_suit_shape_matches_the_search_on_any_size(counts: list[int]) -> None:
    assert suit_shape(bytes(counts)) == ref.suit_shape(bytes(counts))


# ------------------------------------------------------------------ judgements against the reference


_RUNS = [(b + v, b + v + 1, b + v + 2) for b in (0, 10) for v in range(8)] + [(1, 6, 9), (11, 16, 19)]


def _deal(rng: random.Random, discard_state: bool) -> tuple[np.ndarray, list[Declared], np.ndarray, list[int]]:
    """A hand near a win: declared groups, then groups and a unit from the same 80 cards with a few cards swapped
    for others; the unseen copies as a player might count them; the deck left over."""
    deck = [kind for kind in range(20) for _ in range(4)]
    rng.shuffle(deck)

    def take(cards: list[int]) -> bool:
        if any(deck.count(c) < cards.count(c) for c in set(cards)):
            return False
        for c in cards:
            deck.remove(c)
        return True

    groups: list[Declared] = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 4])):
        kind = rng.randrange(20)
        pick = rng.choice(["wai", "peng", "liu", "piao", "chi"])
        if pick == "chi":
            run = rng.choice(_RUNS)
            if take(list(run)):
                groups.append(Declared.chi(list(run), rng.choice(run), own_draw=rng.random() < 0.2))
        elif take([kind] * (4 if pick in ("liu", "piao") else 3)):
            groups.append(getattr(Declared, pick)(kind))
    hand: list[int] = []
    for _ in range(6 - len(groups)):
        for _ in range(20):
            cards = [rng.randrange(20)] * 3 if rng.random() < 0.3 else list(rng.choice(_RUNS))
            if take(cards):
                hand += cards
                break
        else:
            hand += [deck.pop()] * 1 + [deck.pop(), deck.pop()]
    unit = [deck.pop(), deck.pop()]
    hand += unit
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 5])):  # swap a few cards
        position = rng.randrange(len(hand))
        deck.append(hand[position])
        hand[position] = deck.pop(0)
    if not discard_state:
        deck.append(hand.pop(rng.randrange(len(hand))))
    counts = np.array(zipai.to_counts(hand), dtype=np.uint8)
    unseen = np.array([min(4, deck.count(k) + rng.choice([0, 0, 0, 1])) for k in range(20)], dtype=np.uint8)
    if rng.random() < 0.5:
        unseen[rng.randrange(20)] = 0
    return counts, groups, unseen, deck


def _advices(index: int) -> tuple[WaihuziAdvice, ref.ReferenceAdvice]:
    options = {"min_huxi": 5, "xingxingxi": "loose", "daxiaozihu": True, "extra_mingtang": False}
    options.update(OPTION_SETS[index % len(OPTION_SETS)])
    return WaihuziAdvice(**options), ref.ReferenceAdvice(**options)


def _check_discards(seed: int) -> bool:
    rng = random.Random(seed)
    counts, groups, unseen, _ = _deal(rng, discard_state=True)
    advice, reference = _advices(seed)
    forbidden = [k for k in range(20) if rng.random() < 0.1]
    for seen in (unseen, None):
        expected = reference.rank_discards(counts.copy(), groups, forbidden, seen)
        found = advice.rank_discards(counts, groups, forbidden, seen)
        assert {k: tuple(v.__dict__.values()) for k, v in found.items()} == {
            k: (v.wait_value, v.closeness, v.xi) for k, v in expected.items()}, (seed, counts, groups)
        if expected:
            assert advice.discard(counts, groups, forbidden, seen) == reference.discard(
                counts.copy(), groups, forbidden, seen)
    return any(v.wait_value for v in found.values())


@pytest.mark.rule("WH-26", "WH-30", "WH-32")
def test_discards_judge_as_the_reference_on_thousands_of_hands() -> None:
    ready = sum(_check_discards(seed) for seed in range(1500))
    assert ready > 150  # enough of them wait on something for the waits to be compared too


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_discards_judge_as_the_reference(seed: int) -> None:
    _check_discards(seed)


def _outcome(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except HupaiError as error:
        return type(error).__name__ if isinstance(error, InvalidHand) else "HupaiError"


def _check_claims(seed: int) -> None:
    rng = random.Random(seed)
    counts, groups, unseen, deck = _deal(rng, discard_state=False)
    advice, reference = _advices(seed)
    locked = [k for k in range(20) if rng.random() < 0.1]
    held = [k for k in range(20) if counts[k]]
    offers: list[tuple[str, int, tuple[int, int] | None]] = []
    for card in {*rng.sample(deck, 3), *(k for k in held if counts[k] >= 2 and k in deck)}:
        offers += [("peng", card, None), ("piao", card, None), ("win", card, None)]
        for low, high in itertools.combinations(held, 2):
            if card in zipai.completing_cards(low, high):
                offers.append(("chi", card, (low, high)))
    for action, card, menzi in offers:
        for seen in (unseen, None):
            expected = _outcome(reference.claim, action, counts.copy(), card, groups, menzi, locked, seen)
            found = _outcome(advice.claim, action, counts, card, groups, menzi, locked, seen)
            assert found == expected, (seed, action, card, menzi, counts, groups)
    possible = [offer for offer in offers
                if not isinstance(_outcome(advice.claims, [offer], counts, groups, locked, unseen), str)]
    assert advice.claims(possible, counts, groups, locked, unseen) == [
        reference.claim(action, counts.copy(), card, groups, menzi, locked, unseen) for action, card, menzi in possible]


@pytest.mark.rule("WH-14", "WH-15", "WH-26")
def test_claims_judge_as_the_reference_on_hundreds_of_hands() -> None:
    for seed in range(250):
        _check_claims(seed)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_claims_judge_as_the_reference(seed: int) -> None:
    _check_claims(seed)


def test_judge_of_a_hand_at_rest_matches_the_reference() -> None:
    for seed in range(300):
        rng = random.Random(seed)
        counts, groups, unseen, _ = _deal(rng, discard_state=False)
        advice, reference = _advices(seed)
        expected = reference.judge(counts, groups, unseen)
        assert advice.judge(counts, groups, unseen) == Judgement(expected.wait_value, expected.closeness, expected.xi)


def test_a_hand_judged_again_under_other_options_and_unseen_copies_is_judged_afresh() -> None:
    """The core keeps each hand at rest's per-card wait scores (a memo keyed by the hand, its groups and the
    options; the unseen copies weigh them afterwards): the same hands asked again, in turn under every option set
    and with other unseen copies, judge as the reference does each time."""
    hands = [_deal(random.Random(seed), discard_state=False) for seed in range(40)]
    hands = [hand for hand in hands if ref.ReferenceAdvice().judge(hand[0], hand[1], hand[2]).wait_value][:8]
    assert len(hands) >= 4
    for _ in range(2):
        for index in range(len(OPTION_SETS)):
            advice, reference = _advices(index)
            for counts, groups, unseen, _ in hands:
                for seen in (unseen, np.minimum(unseen, 1).astype(np.uint8)):
                    expected = reference.judge(counts, groups, seen)
                    assert advice.judge(counts, groups, seen) == Judgement(
                        expected.wait_value, expected.closeness, expected.xi), (index, counts, groups)


# ------------------------------------------------------------------ hostile input


E3_HAND = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"
OPTIONS = (5, False, True, False)


def _rest() -> np.ndarray:
    return np.array(zipai.to_counts(E3_HAND), dtype=np.uint8)


@pytest.mark.parametrize("hand", [
    np.zeros(19, dtype=np.uint8), np.zeros((2, 20), dtype=np.uint8), np.zeros(20, dtype=np.int64),
    np.full(20, -1, dtype=np.int8), np.full(20, 5, dtype=np.uint8), np.zeros(20, dtype=np.float64),
    bytes(19), b"\x05" * 20, [1] * 20, "x1 x2", None, 3,
])
def test_the_core_refuses_hostile_hands_and_unseen_counts(hand: Any) -> None:
    with pytest.raises(InvalidHand):
        _core.zipai_advise(hand, [], _rest(), 0, OPTIONS, [])
    with pytest.raises(InvalidHand):
        _core.zipai_advise(_rest(), [], hand, 0, OPTIONS, [])


def _hostile_arguments() -> list[tuple[Any, ...]]:
    rest, discard_state = _rest(), np.array(zipai.to_counts(E3_HAND + " x3"), dtype=np.uint8)
    return [
        (rest, [], rest, -1, OPTIONS, []), (rest, [], rest, 1 << 20, OPTIONS, []),
        (rest, [], rest, 0, OPTIONS, [(3, 0, -1, -1)]), (rest, [], rest, 0, OPTIONS, [(1, 20, -1, -1)]),
        (rest, [], rest, 0, OPTIONS, [(2, 0, 30, 1)]), (rest, [], rest, 0, OPTIONS, [(-1, 0, -1, -1)]),
        (discard_state, [], rest, 0, OPTIONS, [(1, 0, -1, -1)]),   # claims need a hand at rest
        (np.zeros(20, dtype=np.uint8), [], rest, 0, OPTIONS, []),  # 0 cards: neither
        (rest, [(7, 0, 0, 0, 0)] * 7, rest, 0, OPTIONS, []),       # seven groups
        (rest, [(7, 0, 0, 0, 0)], rest, 0, OPTIONS, []),           # x1: 2 held + 碰 + ... = 5 copies
        (rest, [(11, 3, 3, 3, -1)], rest, 0, OPTIONS, []),         # not a group type
    ]


def test_the_core_refuses_hostile_arguments() -> None:
    rest = _rest()
    for args in _hostile_arguments():
        with pytest.raises(InvalidHand):
            _core.zipai_advise(*args)
    strided = np.zeros(40, dtype=np.uint8)
    strided[::2] = rest
    judged, _, _ = _core.zipai_advise(strided[::2], [], rest, 0, OPTIONS, [])
    assert judged[20].tolist() == _core.zipai_advise(rest, [], rest, 0, OPTIONS, [])[0][20].tolist()


def test_the_lean_calls_check_and_answer_as_zipai_advise() -> None:
    """zipai_advise_discard and zipai_advise_claims (what the advice calls: no arrays built) refuse what
    zipai_advise refuses, and give its best discard and its claim verdicts."""
    for args in _hostile_arguments():
        with pytest.raises(InvalidHand):
            _core.zipai_advise_claims(*args)
        if not args[5]:
            with pytest.raises(InvalidHand):
                _core.zipai_advise_discard(*args[:5])
    assert _core.zipai_advise_discard(_rest(), [], _rest(), 0, OPTIONS) == -2  # at rest: no discard state
    compared = 0
    for seed in range(300):
        rng = random.Random(seed)
        counts, groups, unseen, deck = _deal(rng, discard_state=seed % 2 == 0)
        declared = [group.as_core() for group in groups]
        forbidden = sum(1 << k for k in range(20) if rng.random() < 0.1)
        if seed % 2 == 0:
            _, _, best = _core.zipai_advise(counts, declared, unseen, forbidden, OPTIONS, [])
            assert _core.zipai_advise_discard(counts, declared, unseen, forbidden, OPTIONS) == best
            continue
        claims = [(kind, card, -1, -1) for card in rng.sample(deck, 2) for kind in (0, 1)]
        held = [k for k in range(20) if counts[k]]
        claims += [(2, card, low, high) for low, high in itertools.combinations(held, 2)
                   for card in zipai.completing_cards(low, high)][:4]
        _, verdicts, _ = _core.zipai_advise(counts, declared, unseen, forbidden, OPTIONS, claims)
        lean = _core.zipai_advise_claims(counts, declared, unseen, forbidden, OPTIONS, claims)
        assert lean == verdicts[:, 0].tolist()
        compared += len(claims)
    assert compared > 500


def test_the_advice_refuses_hostile_arguments_with_hupai_errors() -> None:
    advice = WaihuziAdvice()
    x1 = zipai.parse("x1")[0]
    calls = [
        lambda: advice.judge(np.full(20, 9, dtype=np.int64)),
        lambda: advice.judge(np.zeros((4, 5), dtype=np.uint8)),
        lambda: advice.judge(E3_HAND + " x3"),                     # not at rest
        lambda: advice.rank_discards(E3_HAND),                     # not in a discard state
        lambda: advice.discard(E3_HAND + " x3", forbidden=["x1"]),
        lambda: advice.discard(E3_HAND + " x3", forbidden=[25]),
        lambda: advice.judge(E3_HAND, unseen=np.full(20, 7, dtype=np.uint8)),
        lambda: advice.judge(E3_HAND, unseen=b"\x01"),
        lambda: advice.claim("peng", E3_HAND, 20),
        lambda: advice.claim("peng", E3_HAND, "x1"),
        lambda: advice.claim("chi", E3_HAND, zipai.parse("d3")[0], menzi=(zipai.parse("d1")[0], 40)),
        lambda: advice.claim("chi", E3_HAND, x1, menzi=(x1, x1)),   # no run
        lambda: advice.claim("kong", E3_HAND, x1),
        lambda: WaihuziAdvice(min_huxi=-1),
    ]
    for call in calls:
        with pytest.raises(HupaiError):
            call()


def test_a_rejected_call_leaves_the_callers_arrays_alone() -> None:
    advice = WaihuziAdvice()
    counts = np.array(zipai.to_counts(E3_HAND + " x4"), dtype=np.uint8)
    unseen = np.full(20, 2, dtype=np.uint8)
    before = counts.copy(), unseen.copy()
    advice.rank_discards(counts, unseen=unseen)
    assert advice.claims([("peng", zipai.parse("x7")[0], None)], _rest(), unseen=unseen) == [False]
    assert (counts == before[0]).all() and (unseen == before[1]).all()


def test_greedy_bot_plays_every_option_set() -> None:
    for index, options in enumerate(OPTION_SETS):
        rules = hupai.rules.get("waihuzi", **options)
        game = Game(rules, seed=index, dealer=0)
        play(game, [GreedyBot(index + seat) for seat in range(3)])
        assert game.over
