"""Saved games restored or replayed without a ``rules`` argument share one rules object per rule name and option
set (issue 30): a bounded cache in :func:`hupai.game.state.validate.build_rules`."""

from __future__ import annotations

import threading
from typing import Any

import hupai
import pytest
from hupai import InvalidState
from hupai.bots import RandomBot
from hupai.game import Game
from hupai.game.state import validate


def _played(rules: Any, seed: int, moves: int) -> Game:
    game = Game(rules, seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(game.num_players)]
    for _ in range(moves):
        if game.over:
            break
        seat = game.seats_to_act[0]
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    return game


def _finish(game: Game, seed: int) -> str:
    bots = [RandomBot(seed * 100 + i) for i in range(game.num_players)]
    while not game.over:
        seat = game.seats_to_act[0]
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    return game.to_json()


@pytest.mark.parametrize("system", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_games_restored_with_the_same_options_share_their_rules(system: str) -> None:
    snap = _played(system, 3, 12).snapshot()
    first, second = Game.from_snapshot(snap), Game.from_snapshot(snap)
    assert first.rules is second.rules
    assert Game.replay(_played(system, 4, 5).to_json()).rules is first.rules


def test_different_options_get_different_rules() -> None:
    one = Game.from_snapshot(_played(hupai.rules.get("kawuxing"), 1, 6).snapshot())
    five = Game.from_snapshot(_played(hupai.rules.get("kawuxing", base=5), 1, 6).snapshot())
    assert one.rules is not five.rules
    assert one.rules.options_dict()["base"] == 1 and five.rules.options_dict()["base"] == 5


def test_options_equal_in_python_but_not_in_json_are_not_shared() -> None:
    # True == 1 in Python: a cache keyed on the dict itself would take {"base": true} for {"base": 1}.
    snap = _played(hupai.rules.get("kawuxing"), 2, 4).snapshot()
    Game.from_snapshot(snap)
    for forged in (True, 1.0):
        with pytest.raises(InvalidState, match=r"snapshot\.options"):
            Game.from_snapshot({**snap, "options": {**snap["options"], "base": forged}})


def test_the_cache_stays_bounded() -> None:
    game = _played(hupai.rules.get("kawuxing"), 5, 6)
    snap = game.snapshot()
    restored = [Game.from_snapshot({**snap, "options": {"base": base, "cap": None}}) for base in range(1, 41)]
    assert len(validate._RULES) <= validate.RULES_CACHE_SIZE
    assert len({id(g.rules) for g in restored}) == 40
    # the most recent ones are still shared, the oldest were dropped
    assert Game.from_snapshot({**snap, "options": {"base": 40, "cap": None}}).rules is restored[-1].rules
    assert Game.from_snapshot({**snap, "options": {"base": 1, "cap": None}}).rules is not restored[0].rules


@pytest.mark.parametrize("system", ["guangdong", "yunxiao", "kawuxing"])
def test_a_game_played_on_with_shared_rules_gives_the_log_of_fresh_rules(system: str) -> None:
    for seed in range(4):
        snap = _played(system, seed, 20 + 7 * seed).snapshot()
        fresh = Game.from_snapshot(snap, rules=hupai.rules.get(system, snap["options"]))
        shared = Game.from_snapshot(snap)
        other = Game.from_snapshot(_played(system, seed + 50, 30).snapshot())  # the same rules, another table
        assert other.rules is shared.rules and fresh.rules is not shared.rules
        _finish(other, seed + 7)
        assert _finish(shared, seed) == _finish(fresh, seed)


def test_threads_restoring_at_once_get_one_rules_object() -> None:
    snap = _played(hupai.rules.get("guangdong", base=7), 6, 8).snapshot()
    validate._RULES.clear()
    found: list[Any] = []
    threads = [threading.Thread(target=lambda: found.append(Game.from_snapshot(snap).rules)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and len({id(rules) for rules in found}) == 1
