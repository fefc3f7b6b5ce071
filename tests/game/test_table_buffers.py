"""The mahjong table keeps its numeric state in plain buffers (issue 30): the core's lean turn writes them in place,
and a regression to Python lists (or a restore, snapshot or fork that builds lists) fails here."""

from __future__ import annotations

import copy
import gzip
import json
import random
from pathlib import Path

import pytest
from hupai.game import Game
from hupai.game.game import SNAPSHOT_FORMATS
from hupai.game.state.table import CLAIMED, LOUHU_ALL, LOUHU_KINDS, PILE_CAPACITY, Table
from hupai.worlds import fork

V1 = Path(__file__).resolve().parent.parent / "fixtures" / "snapshots_v1.jsonl.gz"


def _check_buffers(table: Table) -> None:
    n = table.num_players
    assert type(table.hands) is list and len(table.hands) == n
    assert all(type(hand) is bytearray and len(hand) == 34 for hand in table.hands)
    assert type(table.draws) is bytearray and len(table.draws) == n
    assert type(table.discards_made) is bytearray and len(table.discards_made) == n
    # The discard piles: a fixed-size buffer per seat, its discards in order (claimed ones marked), read as
    # copies through `discards`.
    assert type(table.piles) is list and len(table.piles) == n
    assert all(type(pile) is bytearray and len(pile) == PILE_CAPACITY for pile in table.piles)
    for seat, pile in enumerate(table.discards):
        made = table.piles[seat][:table.discards_made[seat]]
        assert pile == bytes(tile for tile in made if not tile & CLAIMED)
        assert not any(table.piles[seat][table.discards_made[seat]:])  # nothing past the discards made
    assert "discards" not in Table.__slots__
    # 漏胡: one int mask per seat (kinds 0..33, bit 34 every tile), no sets or flags.
    assert type(table.louhu) is list and len(table.louhu) == n
    assert all(type(mask) is int and 0 <= mask < 2 * LOUHU_ALL for mask in table.louhu)
    assert "missed" not in Table.__slots__ and "missed_all" not in Table.__slots__


def _played(name: str, seed: int, steps: int) -> Game:
    game = Game(name, seed=seed, dealer=0, claim_window="eligible")
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        seat = game.seats_to_act[0]
        legal = game.legal_actions(seat)
        game.apply(legal[rng.randrange(len(legal))])
    return game


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing"])
def test_a_played_restored_and_forked_table_keeps_its_buffers(name: str) -> None:
    for seed in range(4):
        for steps in (0, 7, 40, 400):
            game = _played(name, seed, steps)
            _check_buffers(game.table)
            restored = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
            _check_buffers(restored.table)
            assert restored.table.to_json() == game.table.to_json()
            _check_buffers(fork(game).table)
            _check_buffers(Table.from_json(game.table.to_json()))


def test_a_format_1_snapshot_restores_into_buffers() -> None:
    for line in list(gzip.open(V1, "rt"))[::8]:
        state = json.loads(line)
        if state["snapshot"]["rules"] == "waihuzi":
            continue
        _check_buffers(Game.from_snapshot(copy.deepcopy(state["snapshot"])).table)


def test_a_claim_takes_the_last_tile_off_the_discarders_pile() -> None:
    for seed in range(30):
        game = Game("guangdong", seed=seed, dealer=0, claim_window="eligible")
        rng = random.Random(seed)
        while not game.over:
            seat = game.seats_to_act[0]
            legal = game.legal_actions(seat)
            claims = [a for a in legal if a.kind in ("pung", "chow", "kong")] if game.table.phase == "claim" else []
            if claims:
                table = game.table
                discarder, before = table.discarder, table.discards
                game.apply(claims[0])
                after = table.discards
                assert after[discarder] == before[discarder][:-1]
                assert all(after[s] == before[s] for s in range(4) if s != discarder)
                _check_buffers(table)
                return
            game.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no claim in 30 hands")



def _louhu_round_trip(game: Game) -> None:
    """The table's 漏胡 masks as a snapshot writes them (the missed strings and 0/1 flags format 2 always wrote),
    restored to the same masks by both formats."""
    louhu = game.table.louhu
    _check_buffers(game.table)
    snap = game.snapshot()
    n = game.table.num_players
    assert snap["table"]["missed"] == ["".join("0123456789abcdefghijklmnopqrstuvwx"[k] for k in range(34)
                                               if mask >> k & 1) for mask in louhu]
    assert snap["table"]["state"][-n:] == [int(mask >= LOUHU_ALL) for mask in louhu]
    restored = Game.from_snapshot(json.loads(json.dumps(snap)))
    assert restored.table.louhu == louhu and json.dumps(restored.snapshot()) == json.dumps(snap)
    assert Table.from_json(game.table.to_json()).louhu == louhu
    v1 = {**snap, "format": SNAPSHOT_FORMATS[0], "table": game.table.to_json()}  # format 1: the table in full
    assert Game.from_snapshot(json.loads(json.dumps(v1))).table.louhu == louhu


def test_louhu_masks_of_declined_wins_are_kept_through_snapshots() -> None:
    """Kawuxing blocks every tile after a declined win (KW): random hands that always pass decline some."""
    seen = 0
    for seed in range(100):
        game = Game("kawuxing", seed=seed, dealer=0, claim_window="eligible")
        rng = random.Random(seed)
        while not game.over and seen < 8:
            seat = game.seats_to_act[0]
            legal = game.legal_actions(seat)
            game.apply(legal[-1] if game.table.phase == "claim" else legal[rng.randrange(len(legal))])  # pass
            if any(game.table.louhu):
                assert set(game.table.louhu) <= {0, LOUHU_ALL}
                seen += 1
                _louhu_round_trip(game)
    assert seen >= 8


def test_louhu_masks_of_kinds_are_kept_through_snapshots() -> None:
    for seed in range(6):
        game = _played("guangdong", seed, 9)
        game.table.louhu[:] = [1 << 5 | 1 << 33, 0, LOUHU_ALL | 1 << 7, 1][:4]
        _louhu_round_trip(game)
        assert LOUHU_KINDS == LOUHU_ALL - 1 == (1 << 34) - 1


def _check_wall(game: Game) -> None:
    """The wall is a typed buffer (issue 30): a bytearray of kinds (or zipai cards), head and tail ints, its own
    buffer (no other table's, no hand's), and the lean turn's pack holds that very buffer."""
    wall = game.table.wall
    assert type(wall.tiles) is bytearray and len(wall.tiles) == len(game.rules.tiles())
    assert sorted(wall.tiles) == sorted(game.rules.tiles())
    assert type(wall.head) is int and type(wall.tail) is int and 0 <= wall.head <= wall.tail <= len(wall.tiles)
    assert all(wall.tiles is not hand for hand in game.table.hands)
    pack = getattr(game._flow, "_turn_pack", None)
    if pack is not None:
        assert any(item is wall.tiles for item in pack)


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_the_wall_is_a_bytearray_dealt_restored_and_forked(name: str) -> None:
    for seed in range(3):
        for steps in (0, 9, 60, 400):
            game = _played(name, seed, steps)
            _check_wall(game)
            for snap in (game.snapshot(), json.loads(json.dumps(game.snapshot()))):
                restored = Game.from_snapshot(snap)
                _check_wall(restored)
                assert restored.table.wall.tiles == game.table.wall.tiles
                assert restored.table.wall.tiles is not game.table.wall.tiles
            forked = fork(game)
            _check_wall(forked)
            assert forked.table.wall.tiles == game.table.wall.tiles
            assert forked.table.wall.tiles is not game.table.wall.tiles
            stacked = Game(name, seed=seed, dealer=0, claim_window="eligible", wall=list(game.table.wall.tiles))
            _check_wall(stacked)


def test_a_format_1_snapshot_restores_its_wall_into_a_bytearray() -> None:
    for line in list(gzip.open(V1, "rt"))[::8]:
        state = json.loads(line)
        _check_wall(Game.from_snapshot(copy.deepcopy(state["snapshot"])))


_BAD_TILES = [256, -1, 2**70, 34, "1m", 1.0, True, None, [0]]


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_a_tampered_wall_in_a_snapshot_is_refused_clearly(name: str) -> None:
    """A wall tile that is no byte, no int or no kind, in a format-1 table's full wall or in a setup's given wall,
    is refused with InvalidState (never a ValueError from filling the buffer, never a crash)."""
    from hupai import InvalidState
    from hupai.game.game import SNAPSHOT_FORMATS

    game = _played(name, 3, 30)
    stacked = Game(name, seed=3, dealer=0, claim_window="eligible", wall=list(game.table.wall.tiles))
    v1 = {**game.snapshot(), "format": SNAPSHOT_FORMATS[0], "table": game.table.to_json()}
    for bad in _BAD_TILES:
        for at in (0, game.table.wall.head, -1):
            full = copy.deepcopy(v1)
            full["table"]["wall"][0][at] = bad
            with pytest.raises(InvalidState, match="wall"):
                Game.from_snapshot(full)
            given = json.loads(json.dumps(stacked.snapshot()))
            given["setup"]["wall"][at] = bad
            with pytest.raises(InvalidState, match="wall"):
                Game.from_snapshot(given)
