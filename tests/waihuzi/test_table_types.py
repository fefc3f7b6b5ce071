"""The Wai Huzi table keeps its state as typed plain data (issue 30): bans and locks as int masks. Checked on tables
a flow plays, restores from a compact snapshot, forks and samples as a search world, so a regression to lists or
sets fails."""

from __future__ import annotations

import json
from typing import Any

from hupai.bots import GreedyBot
from hupai.game import Game
from hupai.game.state.zipai import MENZI
from hupai.worlds import fork, sample


def check_types(table: Any) -> None:
    for name in ("chi_ban", "peng_ban", "locked"):  # 20-bit card masks
        masks = getattr(table, name)
        assert type(masks) is list and len(masks) == 3, name
        assert all(type(mask) is int and 0 <= mask < 1 << 20 for mask in masks), name
    assert all(type(mask) is int and 0 <= mask < 1 << len(MENZI) for mask in table.menzi_ban)


def _played(seed: int) -> list[Game]:
    """The game at every step of one seeded hand, a copy of it restored from its snapshot and a sampled world."""
    game = Game("waihuzi", seed=seed, dealer=seed % 3, claim_window="all" if seed % 2 else "eligible")
    bots = [GreedyBot(seed * 3 + s) for s in range(3)]
    out = []
    while not game.over:
        check_types(game.table)
        seat = game.seats_to_act[0]
        observation = game.observation(seat)
        if len(game.actions) % 7 == 3:
            out.append(Game.from_snapshot(json.loads(json.dumps(game.snapshot()))))
            out.append(sample(observation, seed))
            out.append(fork(game))
        game.apply(bots[seat].act(observation))
    return out


def test_the_table_fields_are_typed_plain_data() -> None:
    for seed in range(6):
        for other in _played(seed):
            check_types(other.table)
