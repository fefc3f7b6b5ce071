"""The logs stay the same bytes as the 606392f build's for the same seeds and bots (issue 21 item 3), in every
rule system with RandomBot and GreedyBot: this build plays the hands that ``bench/compare_builds.py --record``
played with the 606392f build and compares each JSON log's digest with the recorded one.

The fixture ``tests/fixtures/log_digests_606392f.json`` was recorded once from that build (its
``recorded_with``); never regenerate it to make this test pass: a difference is a change of behaviour.
``bench/compare_builds.py OLD NEW --logs-only`` compares two builds directly.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "log_digests_606392f.json"
RECORDED: dict[str, list[str]] = json.loads(FIXTURE.read_text())["workloads"]


def _digests(name: str, bot: str, hands: int) -> list[str]:
    """As bench/compare_builds.py's ``run(..., digests)``: wall seed = hand index, bot ``i`` seeded ``i``."""
    rules = hupai.rules.get(name)
    bots = [(RandomBot if bot == "RandomBot" else GreedyBot)(i) for i in range(rules.num_players)]
    found = []
    for seed in range(hands):
        game = Game(rules, seed=seed, dealer=seed % rules.num_players, claim_window="eligible")
        play(game, bots)
        found.append(hashlib.sha256(game.to_json().encode()).hexdigest()[:16])
    return found


def test_every_system_and_bot_is_recorded() -> None:
    expected = {f"{name} {bot}" for name in hupai.simulate.playable() for bot in ("RandomBot", "GreedyBot")}
    assert expected <= set(RECORDED)


@pytest.mark.parametrize("workload", sorted(RECORDED))
def test_logs_are_the_recorded_bytes(workload: str) -> None:
    name, bot = workload.split()
    recorded = RECORDED[workload]
    got = _digests(name, bot, len(recorded))
    differ = [i for i, (a, b) in enumerate(zip(recorded, got, strict=True)) if a != b]
    assert not differ, f"{workload}: hands {differ[:10]} ({len(differ)} in all) log other bytes than 606392f's"
