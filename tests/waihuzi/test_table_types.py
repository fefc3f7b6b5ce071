"""The Wai Huzi table keeps its state as typed plain data (issue 30): bans and locks as int masks, the piles as
fixed-size bytearrays with their sizes, the groups as fixed-width records (the Group tuples a cache of them), the 死手
and grouped flags as seat masks, the 报听 flags as a bytearray. Checked on tables a flow plays, restores from a compact
snapshot, forks and samples as a search world, so a regression to lists or sets fails."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hupai.bots import GreedyBot
from hupai.game import Game
from hupai.game.state.zipai import (
    GROUP_CAPACITY,
    MENZI,
    NONE,
    PILE_CAPACITY,
    RECORD_SIZE,
    Group,
    group_record,
    mask_flags,
    record_groups,
)
from hupai.worlds import fork, sample


def check_types(table: Any) -> None:
    for name in ("chi_ban", "peng_ban", "locked"):  # 20-bit card masks
        masks = getattr(table, name)
        assert type(masks) is list and len(masks) == 3, name
        assert all(type(mask) is int and 0 <= mask < 1 << 20 for mask in masks), name
    assert all(type(mask) is int and 0 <= mask < 1 << len(MENZI) for mask in table.menzi_ban)
    # the piles: a buffer per seat, its first pile_sizes[seat] bytes the cards, zeros after
    assert type(table.pile_sizes) is bytearray and len(table.pile_sizes) == 3
    assert type(table.piles) is list and len(table.piles) == 3
    for pile, size in zip(table.piles, table.pile_sizes, strict=True):
        assert type(pile) is bytearray and len(pile) == PILE_CAPACITY
        assert max(pile[:size], default=0) < 20 and not any(pile[size:])
    assert table.discards == [list(pile[:size]) for pile, size in zip(table.piles, table.pile_sizes, strict=True)]
    # the flags: dead and grouped seat masks, ready_deal 0/1 per seat or NONE (not known yet)
    for name in ("dead", "grouped"):
        mask = getattr(table, name)
        assert type(mask) is int and 0 <= mask < 8, name
    assert type(table.ready_deal) is bytearray and len(table.ready_deal) == 3
    assert set(table.ready_deal) <= {0, 1, NONE}
    assert table.to_json()["dead"] == list(mask_flags(table.dead))
    # the groups: records per seat, in the order made; groups the cache of them
    assert type(table.group_records) is list and len(table.group_records) == 3
    for records, groups in zip(table.group_records, table.groups, strict=True):
        assert type(records) is bytearray and len(records) == RECORD_SIZE * len(groups) <= RECORD_SIZE * GROUP_CAPACITY
        assert type(groups) is tuple and groups == record_groups(bytes(records))


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


def test_set_piles_refuses_a_pile_that_does_not_fit() -> None:
    table = Game("waihuzi", seed=1).table
    for piles in ([[0] * (PILE_CAPACITY + 1), [], []], [[20], [], []], [[255], [], []], [[], []]):
        with pytest.raises(ValueError):
            table.set_piles([bytes(pile) for pile in piles])
    with pytest.raises(TypeError):
        table.set_piles([[3], [], []])  # type: ignore[list-item]
    table.set_piles([b"\x03\x04", b"", b"\x13"])
    assert table.discards == [[3, 4], [], [19]] and bytes(table.pile_sizes) == b"\x02\x00\x01"


def test_put_group_writes_a_record_and_the_cache_follows() -> None:
    table = Game("waihuzi", seed=1).table
    peng = Group("peng", (3, 3, 3), 3, 2)
    table.put_group(0, peng)
    assert table.groups[0] == (peng,) and table.group_records[0] == bytes([1, 3, 3, 3, NONE, 3, 2])
    chi = Group("chi", (0, 1, 2), 1, 0)
    table.put_group(0, chi)
    piao = Group("piao", (3,) * 4, 3, 2)
    table.put_group(0, piao, 0)  # an upgrade keeps its place
    assert table.groups[0] == (piao, chi)
    assert table.group_records[0] == group_record(piao) + group_record(chi)
    with pytest.raises(ValueError):
        table.put_group(0, chi, 2)  # no record 2 to replace
    for _ in range(GROUP_CAPACITY):
        table.put_group(1, peng)
    with pytest.raises(ValueError):
        table.put_group(1, peng)  # no room for an eighth
    assert len(table.groups[1]) == GROUP_CAPACITY and len(table.group_records[1]) == GROUP_CAPACITY * RECORD_SIZE
