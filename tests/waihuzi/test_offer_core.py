"""The zipai flow's claim scan asks the core once per offered card which seats win on it (``zipai_offer``, its wins
those of ``zipai_offer_wins``), and once per 报听 moment whether a hand is ready (``zipai_ready``). Both are checked
here against the calls they replace (``zipai_best`` per seat, ``zipai_waits``) at every offer and every 报听 moment
of real games (thousands of states: RandomBot and GreedyBot, several option sets, both claim windows, 死手 seats and
海底 cards among them), on random hands, and on hostile arguments."""

from __future__ import annotations

import random
from typing import Any

import hupai
import numpy as np
import pytest
from hupai import _core
from hupai.bots import GreedyBot, RandomBot
from hupai.errors import InvalidHand
from hupai.game import Game, play
from hupai.game.state import zipai as zipai_state
from hupai.game.zipai import flow as flow_module
from hupai.zipai import PartType

OPTION_SETS: list[dict[str, Any]] = [
    {}, {"min_huxi": 8}, {"min_huxi": 3, "xingxingxi": "strict", "extra_mingtang": True}, {"daxiaozihu": False},
    {"sishou": "at_claim"}]
OPTIONS = (5, False, True, False)


def _wins_one_by_one(hands: Any, declared: Any, card: int, source: int, drawn: bool, seats: int,
                     options: Any) -> int:
    """The scan as the flow made it before: zipai_best for each asked seat."""
    mask = 0
    for seat in range(3):
        if seats >> seat & 1:
            own = drawn and seat == source
            if _core.zipai_best(hands[seat], declared[seat], card, 1 if own else 2, options)[1] is not None:
                mask |= 1 << seat
    return mask


def _ready_from_waits(hand: Any, declared: Any, options: Any) -> bool:
    """The 报听 question as the flow asked it before: some wait, self-drawn or from another."""
    return any(own[1] is not None or other[1] is not None
               for _, own, other in _core.zipai_waits(hand, declared, options))


class _Checked:
    """Stands in for the core calls inside the flow, checking each answer against the calls it replaces."""

    def __init__(self) -> None:
        self.offers = self.wins = self.readies = self.ready = self.dead = self.haidi = 0
        self.game: Any = None

    def offer(self, hands: Any, declared: Any, card: int, source: int, drawn: bool, dead: int, chi_ban: Any,
              menzi_ban: Any, locked: Any, chows: bytes, options: Any, wins: bool) -> int:
        """The flow's offer scan (zipai_offer): its wins (bit 16 of each seat's 16) are zipai_offer_wins' and
        zipai_best's, seat by seat."""
        bits = _core.zipai_offer(hands, declared, card, source, drawn, dead, chi_ban, menzi_ban, locked, chows,
                                 options, wins)
        seats = (7 if drawn else 7 ^ (1 << source)) & ~dead
        found = sum(1 << seat for seat in range(3) if bits >> 16 * seat & 16)
        assert wins and found == _core.zipai_offer_wins(hands, declared, card, source, drawn, seats, options)
        assert found == _wins_one_by_one(hands, declared, card, source, drawn, seats, options), (
            [bytes(h) for h in hands], declared, card, source, drawn, seats, options)
        assert not any(bits >> 16 * seat & 0xFFFF for seat in range(3) if not seats >> seat & 1)
        # ... and the flow asked about the offer on its table: the card offered, its source, every seat but a
        # 死手 one (and a discard's discarder), each with its own hand and groups
        flow = self.game._flow
        table = flow.table
        own = table.offer_kind == "draw"
        expected = sum(1 << seat for seat in range(3)
                       if not (table.dead >> seat & 1) and (own or seat != table.offer_from))
        assert (card, source, drawn, seats) == (table.offer, table.offer_from, own, expected)
        assert [bytes(hand) for hand in hands] == [bytes(hand) for hand in table.hands]
        assert list(declared) == flow._core_groups and options == flow._options
        self.offers += 1
        self.wins += bin(found).count("1")
        self.dead += seats != (7 if drawn else 7 ^ (1 << source))
        return bits

    def zipai_ready(self, hand: Any, declared: Any, options: Any) -> bool:
        found = _core.zipai_ready(hand, declared, options)
        assert found == _ready_from_waits(hand, declared, options), (bytes(hand), declared, options)
        self.readies += 1
        self.ready += found
        return found


@pytest.mark.rule("WH-19", "WH-27", "WH-32", "WH-38")
def test_the_claim_scan_and_the_ready_check_answer_as_the_calls_they_replace(monkeypatch: Any) -> None:
    checked = _Checked()
    monkeypatch.setattr(flow_module, "zipai_offer", checked.offer)
    monkeypatch.setattr(flow_module, "zipai_ready", checked.zipai_ready)
    # (the table answers the flow's 报听 questions when its ready_deal is first read: read at each hand's end)
    monkeypatch.setattr(zipai_state, "zipai_ready", checked.zipai_ready)
    # every offer one by one (the core's run of unclaimed cards is held to this path by test_lean_offers.py)
    monkeypatch.setattr(flow_module, "LEAN_OFFERS", False)
    for index in range(400):
        options = OPTION_SETS[index % len(OPTION_SETS)]
        rules = hupai.rules.get("waihuzi", options)
        bots = [(GreedyBot if index % 3 else RandomBot)(index * 3 + seat) for seat in range(3)]
        game = checked.game = Game(rules, seed=index, dealer=index % 3,
                                   claim_window="all" if index % 2 else "eligible")
        play(game, bots)
        table: Any = game.table
        table.ready_deal  # noqa: B018 (read: the questions answered)
        checked.haidi += table.wall.head == len(table.wall.tiles)
    assert checked.offers > 8000 and checked.wins > 200 and checked.readies > 1000 and checked.ready > 8
    assert checked.dead > 0  # some offers skipped a 死手 seat (WH-27)
    assert checked.haidi > 0  # some hands reached the 海底 card (WH-19)


def _random_hand(rng: random.Random, cards: int) -> np.ndarray:
    deck = [kind for kind in range(20) for _ in range(4)]
    rng.shuffle(deck)
    counts = np.zeros(20, dtype=np.uint8)
    for kind in deck[:cards]:
        counts[kind] += 1
    return counts


def test_random_hands_answer_as_the_calls_they_replace() -> None:
    rng = random.Random(21)
    for _ in range(600):
        # near-complete hands (most of them split into groups) and fully random ones
        hands = [_random_hand(rng, 19) for _ in range(3)]
        for hand in hands:
            if rng.random() < 0.7:  # make it close to a win: three 坎-like triplets
                hand[:] = 0
                for kind in rng.sample(range(20), 6):
                    hand[kind] = 3
                hand[rng.choice([k for k in range(20) if hand[k] == 3])] -= 2
        declared: list[list[tuple[int, int, int, int, int]]] = [[], [], []]
        card = rng.randrange(20)
        source = rng.randrange(3)
        drawn = rng.random() < 0.5
        seats = rng.randrange(8)
        if any(hand[card] >= 4 for hand in hands):
            continue
        assert _core.zipai_offer_wins(hands, declared, card, source, drawn, seats, OPTIONS) == _wins_one_by_one(
            hands, declared, card, source, drawn, seats, OPTIONS)
        for hand in hands:
            assert _core.zipai_ready(hand, [], OPTIONS) == _ready_from_waits(hand, [], OPTIONS)


def test_the_ready_check_answers_as_every_wait_over_min_huxi_and_declared_groups() -> None:
    """zipai_ready asks only self-drawn wins and stops at the first layout with enough 息 (a win from another's card
    never has more 息): the same answers as zipai_waits' two sources, near the threshold and with groups declared."""
    rng = random.Random(33)
    groups = [(int(PartType.PENG), 4, 4, 4, 4), (int(PartType.WAI), 12, 12, 12, -1), (int(PartType.CHI), 1, 6, 9, 6),
              (int(PartType.LIU), 17, 17, 17, -1)]
    ready = asked = 0
    for _ in range(500):
        declared = rng.sample(groups, rng.randrange(3))
        cards = 19 - 3 * len(declared)
        hand = _random_hand(rng, cards)
        if rng.random() < 0.8:  # close to a win: triplets and a pair
            hand[:] = 0
            for kind in rng.sample([k for k in range(20) if k not in (4, 12, 17)], cards // 3 + 1):
                hand[kind] = 3
            for _ in range(3 * (cards // 3 + 1) - cards):
                hand[rng.choice([k for k in range(20) if hand[k]])] -= 1
        total = [int(count) for count in hand]
        for group in declared:
            for kind in group[1:4]:
                total[kind] += 1 + (group[0] == int(PartType.LIU) and kind == group[1])
        if max(total) > 4:  # more copies than the game has: not a hand
            continue
        options = (rng.choice([0, 3, 5, 8, 10, 15]), rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5)
        found = _core.zipai_ready(hand, declared, options)
        assert found == _ready_from_waits(hand, declared, options), (bytes(hand), declared, options)
        ready += found
        asked += 1
    assert ready > 50 and asked - ready > 50


@pytest.mark.parametrize("call", [
    lambda h: _core.zipai_offer_wins([h, h, h], [[], [], []], 20, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[], [], []], 1, 3, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[], [], []], 1, 0, True, 8, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[], [], []], 1, 0, True, -1, OPTIONS),
    lambda h: _core.zipai_offer_wins([np.zeros(20, np.uint8), h, h], [[], [], []], 1, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[(7, 1, 1, 1, 1)], [], []], 1, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_ready(np.zeros(20, np.uint8), [], OPTIONS),
    lambda h: _core.zipai_ready(np.full(20, 5, np.uint8), [], OPTIONS),
])
def test_malformed_arguments_are_refused_with_invalid_hand(call: Any) -> None:
    hand = np.array([3, 3, 3, 3, 3, 3, 1] + [0] * 13, dtype=np.uint8)
    with pytest.raises(InvalidHand):
        call(hand)


def test_a_seat_left_out_of_the_mask_is_not_asked() -> None:
    """A malformed hand of a seat not asked (a 死手 seat's, or the discarder's) is not even read."""
    hand = np.array([3, 3, 3, 3, 3, 3, 1] + [0] * 13, dtype=np.uint8)
    bad = np.zeros(20, dtype=np.uint8)
    assert _core.zipai_offer_wins([hand, bad, bad], [[], [], []], 6, 1, False, 1, OPTIONS) == 1
    assert _core.zipai_offer_wins([hand, bad, bad], [[], [], []], 6, 1, False, 0, OPTIONS) == 0


def test_hands_as_bytes_or_bytearrays_answer_as_arrays() -> None:
    """The flow passes its table's own bytearrays; bytes, strided uint8 arrays and tuples of groups read the same."""
    rng = random.Random(5)
    for _ in range(200):
        hands = [_random_hand(rng, 19) for _ in range(3)]
        card = rng.randrange(20)
        if any(hand[card] >= 4 for hand in hands):
            continue
        seats, source, drawn = rng.randrange(8), rng.randrange(3), rng.random() < 0.5
        expected = _core.zipai_offer_wins(hands, [[], [], []], card, source, drawn, seats, OPTIONS)
        wide = [np.repeat(hand, 2)[::2] for hand in hands]  # a strided view
        for form in ([bytearray(h) for h in hands], tuple(bytes(h) for h in hands), wide):
            assert _core.zipai_offer_wins(form, ((), (), ()), card, source, drawn, seats, list(OPTIONS)) == expected


@pytest.mark.parametrize("call", [
    lambda h: _core.zipai_offer_wins(h, [[], [], []], 1, 0, True, 7, OPTIONS),  # not three hands
    lambda h: _core.zipai_offer_wins([h, h], [[], [], []], 1, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[], []], 1, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[(7, 1, 1, 1)], [], []], 1, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[(7, 1, 1, 1, "x")], [], []], 1, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [5, [], []], 1, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[], [], []], 1.0, 0, True, 7, OPTIONS),
    lambda h: _core.zipai_offer_wins([h, h, h], [[], [], []], 1, 0, True, 7, (5, False)),
    lambda h: _core.zipai_offer_wins([h, h, h], [[], [], []], 1, 0, True, 7),
    lambda h: _core.zipai_offer_wins(hands=[h, h, h], declared=[[], [], []], card=1, source=0, drawn=True, seats=7,
                                     options=OPTIONS),
])
def test_malformed_argument_types_are_refused(call: Any) -> None:
    """Arguments of the wrong shape or type: a TypeError, never a crash (the arguments are positional only)."""
    hand = np.array([3, 3, 3, 3, 3, 3, 1] + [0] * 13, dtype=np.uint8)
    with pytest.raises(TypeError):
        call(hand)


@pytest.mark.parametrize("bad", [[1] * 20, np.zeros(19, np.uint8), bytes(21), np.zeros(20, np.float64),
                                 np.full(20, 5, np.int64), "x" * 20])
def test_malformed_hands_are_refused_with_invalid_hand(bad: Any) -> None:
    hand = np.array([3, 3, 3, 3, 3, 3, 1] + [0] * 13, dtype=np.uint8)
    with pytest.raises(InvalidHand):
        _core.zipai_offer_wins([hand, bad, hand], [[], [], []], 1, 0, True, 7, OPTIONS)
    assert _core.zipai_offer_wins([hand, bad, hand], [[], [], []], 1, 0, True, 5, OPTIONS) >= 0  # not asked: not read
