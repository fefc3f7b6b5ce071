"""The lean turn (``MahjongFlow._lean_turn``): a plain discard nobody can claim and the next seat's draw, in one
frame. It must leave exactly the state, events and legal actions the general path (``_discard``, ``_next_turn``,
``_draw``) leaves: both are played side by side, action by action, on the same seeds."""

from __future__ import annotations

import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game


def _pair(seed: int) -> tuple[Game, Game]:
    lean = Game("guangdong", seed=seed, dealer=seed % 4, claim_window="eligible")
    plain = Game("guangdong", seed=seed, dealer=seed % 4, claim_window="eligible")
    plain._flow._lean = False  # the general path
    return lean, plain


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot])
def test_lean_turn_leaves_the_state_the_general_path_leaves(bot):
    """GD-11 (a draw ends a 漏胡 block) and every other effect of a turn: snapshots, events and the next legal
    actions are equal after every action of 60 hands."""
    assert _pair(0)[0]._flow._lean
    lean_turns = 0
    for seed in range(60):
        lean, plain = _pair(seed)
        bots = [bot(seed * 4 + i) for i in range(4)]
        while not lean.over:
            seat = lean.current.seats[0]
            action = bots[seat].act(lean.observation(seat))
            lean_turns += lean.table.phase == "turn" and action.kind == "discard"
            if seed % 3 == 0 and lean.table.phase == "turn":  # a 漏胡 block on the next seat, for its draw to end
                for game in (lean, plain):
                    game.table.missed[(seat + 1) % 4].add(seed % 34)
                    game.table.missed_all[(seat + 1) % 4] = seed % 2 == 0
            lean.apply(action)
            plain.apply(action)
            assert lean.snapshot() == plain.snapshot()
            assert lean._legal == plain._legal  # what apply() told the shell (a plain turn's discards)
            for other in lean.current.seats:
                assert lean.legal_actions(other) == plain.legal_actions(other)
        assert lean.to_json() == plain.to_json()
    assert lean_turns > 1500


def test_lean_turn_only_where_the_core_decides_claims():
    """Only Guangdong with claim_window="eligible" takes it: a window asking every seat, or rules with their
    own claims, pre-draw declarations or wall end, use the general path."""
    assert not Game("guangdong", seed=1)._flow._lean  # claim_window="all"
    for name in ("yunxiao", "kawuxing"):
        assert not Game(name, seed=1, claim_window="eligible")._flow._lean
