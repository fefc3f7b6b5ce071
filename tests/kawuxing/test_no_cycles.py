"""A Kawuxing hand (rules with ``chow_seats``) is freed by reference counting, not left to the cyclic GC: a
flow in a reference cycle made every hand's objects wait for a collection, whose timing moved the cost of hands."""

from __future__ import annotations

import gc

import hupai
from hupai.bots import GreedyBot
from hupai.game import Game, play


def test_a_finished_and_a_restored_hand_leave_no_cyclic_garbage() -> None:
    rules = hupai.rules.get("kawuxing")
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            game = Game(rules, seed=seed, dealer=seed % 3, claim_window="eligible")
            play(game, [GreedyBot(i) for i in range(3)])
            restored = Game.from_snapshot(game.snapshot())
            assert restored.to_json() == game.to_json()
            del game, restored
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_restored_table_asks_the_rules_about_itself() -> None:
    game = Game("kawuxing", seed=5, dealer=0, claim_window="eligible")
    restored = Game.from_snapshot(game.snapshot())
    assert restored._flow._chowers.table is restored._flow.table  # type: ignore[union-attr]
    assert game._flow._chowers.table is game._flow.table  # type: ignore[union-attr]
