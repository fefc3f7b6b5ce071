"""The lean turn (``MahjongFlow._lean_turn``): a plain discard nobody can claim and the next seat's draw, in one
frame; with it the core's quick claim scan before a rule system's own claims (``claims_in_shapes``) and the
turns a rule system says are plain (``Rules.turn_is_plain``). They must leave exactly the state, events and legal
actions the general path (``_discard``, ``_next_turn``, ``_draw``, every claim and turn hook asked) leaves: both
are played side by side, action by action, on the same seeds."""

from __future__ import annotations

import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play


def _pair(name: str, seed: int) -> tuple[Game, Game]:
    n = 3 if name == "kawuxing" else 4
    lean = Game(name, seed=seed, dealer=seed % n, claim_window="eligible")
    plain = Game(name, seed=seed, dealer=seed % n, claim_window="eligible")
    flow = plain._flow
    flow._lean = flow._quick_claims = False  # the general path: every claim hook asked
    flow._quick_turn = None  # and every turn hook
    return lean, plain


@pytest.mark.parametrize("name", ["guangdong", "kawuxing"])
@pytest.mark.parametrize("bot", [RandomBot, GreedyBot])
def test_lean_turn_leaves_the_state_the_general_path_leaves(name, bot):
    """GD-11 and KW-10 (a draw ends a 漏胡 block), KW-6 (the last tile's drawer discards it), KW-8 (no chow),
    KW-11 (kongs), KW-16 (亮倒 offered where a discard leaves the hand ready), KW-17 (a 亮倒 hand's 摸切 and
    claims) and every other effect of a turn: snapshots, events and the legal actions of the seats to act are
    equal after every action of 60 hands."""
    assert _pair(name, 0)[0]._flow._lean
    lean_turns = declared = 0
    for seed in range(60):
        lean, plain = _pair(name, seed)
        n = lean.rules.num_players
        bots = [bot(seed * n + i) for i in range(n)]
        while not lean.over:
            seat = lean.current.seats[0]
            action = bots[seat].act(lean.observation(seat))
            lean_turns += lean.table.phase == "turn" and action.kind == "discard" and not action.flag
            declared += bool(action.flag)
            if seed % 3 == 0 and lean.table.phase == "turn":  # a 漏胡 block on the next seat, for its draw to end
                for game in (lean, plain):
                    game.table.louhu[(seat + 1) % n] |= 1 << seed % 34 | (1 << 34 if seed % 2 == 0 else 0)
            lean.apply(action)
            plain.apply(action)
            assert lean.snapshot() == plain.snapshot()
            if name == "guangdong":
                assert lean._legal == plain._legal  # what apply() told the shell (a plain turn's discards)
            for other in lean.current.seats:
                assert lean.legal_actions(other) == plain.legal_actions(other)
        assert lean.to_json() == plain.to_json()
    assert lean_turns > (1500 if name == "guangdong" else 700)
    assert name == "guangdong" or declared > 5  # Kawuxing's 亮倒 (KW-16) was offered and taken


@pytest.mark.parametrize("name", ["guangdong", "kawuxing"])
def test_play_gives_the_logs_of_the_general_path(name):
    """play() applies the lean turn itself: the logs of whole hands are the general path's, byte for byte."""
    for seed in range(30):
        lean, plain = _pair(name, seed)
        n = lean.rules.num_players
        play(lean, [RandomBot(seed + i) for i in range(n)])
        play(plain, [RandomBot(seed + i) for i in range(n)])
        assert lean.to_json() == plain.to_json()


def test_lean_turn_only_where_the_core_scans_claims_first():
    """Only rules whose claims the core's scan bounds, with claim_window="eligible", take it: a window asking
    every seat, or rules with claims beyond the scan's shapes or pre-draw declarations, use the general path."""
    assert not Game("guangdong", seed=1)._flow._lean  # claim_window="all"
    assert not Game("kawuxing", seed=1)._flow._lean
    assert not Game("yunxiao", seed=1, claim_window="eligible")._flow._lean
    assert Game("kawuxing", seed=1, claim_window="eligible")._flow._lean


@pytest.mark.parametrize("window", ["eligible", "all"])
@pytest.mark.parametrize("bot", [RandomBot, GreedyBot])
def test_yunxiao_plain_turns_are_the_hooks_turns(window, bot):
    """Yunxiao (its own win test, golds wild) answers a draw by a seat known not ready with the core's kong test
    and its discards (``YunxiaoRules.turn_is_plain``): the legal actions, state and logs equal those of every
    turn hook asked (YX-16 过张, YX-20 kongs, YX-23 the last kong's replacement, YX-29 三金倒), action by
    action over 60 hands, and most turns take it."""
    quick_turns = hooked_turns = 0
    for seed in range(60):
        quick = Game("yunxiao", seed=seed, dealer=seed % 4, claim_window=window)
        hooked = Game("yunxiao", seed=seed, dealer=seed % 4, claim_window=window)
        hooked._flow._quick_turn = None
        assert quick._flow._quick_turn is not None
        bots = [bot(seed * 4 + i) for i in range(4)]
        while not quick.over:
            seat = quick.current.seats[0]
            if quick.table.phase == "turn":
                plain = quick.rules.turn_is_plain(quick.table, seat)
                quick_turns += plain
                hooked_turns += not plain
            action = bots[seat].act(quick.observation(seat))
            quick.apply(action)
            hooked.apply(action)
            assert quick.snapshot() == hooked.snapshot()
            for other in quick.current.seats:
                assert quick.legal_actions(other) == hooked.legal_actions(other)
        assert quick.to_json() == hooked.to_json()
    assert quick_turns > 2 * hooked_turns > 0
