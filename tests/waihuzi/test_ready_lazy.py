"""WH-38's 报听 question is kept by the table and answered when ``ready_deal`` is first read: the answer is the
one the hand at the 报听 moment gives, however the hand has moved on since, and a copy or a snapshot reads it."""

from __future__ import annotations

import hupai
import numpy as np
from hupai._core import zipai_ready
from hupai.bots import RandomBot
from hupai.game import Game
from hupai.game.state.zipai import NONE
from hupai.worlds import fork


def _eager(game: Game, seat: int) -> int:
    """The seat's 报听 answer asked of the core now (what the flow asked at the moment before it was kept)."""
    flow = game._flow
    return int(zipai_ready(np.frombuffer(bytes(game.table.hands[seat]), dtype=np.uint8),
                           list(flow._core_groups[seat]), flow._options))


def test_the_question_waits_and_gives_the_moments_answer() -> None:
    rules = hupai.rules.get("waihuzi")
    checked = 0
    for seed in range(40):
        game = Game(rules, seed=seed, dealer=seed % 3, claim_window="eligible")
        table = game.table
        dealer = table.dealer
        assert table._ready_asks is not None  # asked at the deal, not answered yet
        expected = [NONE if seat == dealer else _eager(game, seat) for seat in range(3)]
        bots = [RandomBot(seed * 10 + seat) for seat in range(3)]
        copies = []
        while not game.over:
            seat = game.seats_to_act[0]
            opening = table.opening
            game.apply(bots[seat].choose(game.legal_actions(seat)))
            if opening and not table.opening and not game.over and seat == dealer:
                expected[dealer] = _eager(game, dealer)  # the dealer's moment: right after its first move
                copies.append((fork(game), list(expected)))
        # read only now, the hands long moved on: the answers of the moments
        assert list(table.ready_deal) == expected
        assert table._ready_asks is None
        for copy, answers in copies:
            assert list(copy.table.ready_deal) == answers
        checked += 1
    assert checked == 40


def test_a_snapshot_reads_the_answers() -> None:
    rules = hupai.rules.get("waihuzi")
    game = Game(rules, seed=3, claim_window="eligible")
    bots = [RandomBot(30 + seat) for seat in range(3)]
    for _ in range(6):
        seat = game.seats_to_act[0]
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    snapshot = game.snapshot()
    restored = Game.from_snapshot(snapshot, rules=rules)
    assert list(restored.table.ready_deal) == list(game.table.ready_deal)


def test_ready_of_answers_one_seat_and_agrees_with_the_whole_read() -> None:
    rules = hupai.rules.get("waihuzi")
    for seed in range(10):
        game = Game(rules, seed=seed, dealer=0, claim_window="eligible")
        other = Game(rules, seed=seed, dealer=0, claim_window="eligible")
        expected = list(other.table.ready_deal)  # every question answered
        table = game.table
        assert table.ready_of(1) == expected[1]
        assert table._ready_asks is not None and table._ready_asks[1] is None and table._ready_asks[2] is not None
        assert table.ready_of(2) == expected[2]
        assert table._ready_asks is None  # the last question answered: none kept
        assert list(table.ready_deal) == expected
