"""The mahjong table keeps its numeric state in plain buffers (issue 30): the core's lean turn writes them in place,
and a regression to Python lists (or a restore, snapshot or fork that builds lists) fails here."""

from __future__ import annotations

import copy
import gzip
import json
import random
from pathlib import Path

import pytest
from hupai.errors import HupaiError, InvalidHand
from hupai.game import Game
from hupai.game.game import SNAPSHOT_FORMATS
from hupai.game.state.table import CLAIMED, LOUHU_ALL, LOUHU_KINDS, PILE_CAPACITY, READY_UNKNOWN, ReadyView, Table
from hupai.hand import MELD_CODES, MELD_WIDTH, NO_SEAT, Meld
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
    # The ready cache: a byte per seat (0 not ready, 1 ready, 255 not known) that the core writes in place; the
    # rules read it as True/False/None through a read-only view over those same bytes.
    assert type(table.ready_bytes) is bytearray and len(table.ready_bytes) == n
    assert set(table.ready_bytes) <= {0, 1, READY_UNKNOWN}
    assert type(table.ready) is ReadyView and table.ready._bytes is table.ready_bytes
    assert list(table.ready) == [None if b == READY_UNKNOWN else b == 1 for b in table.ready_bytes]
    # Melds: per seat its fixed-width records (bytes; the core reads a seat's meld count from their size), each
    # its Meld's record in the order of the seat's list, and the Melds the rules read are what they decode to.
    assert type(table.meld_records) is list and len(table.meld_records) == n
    for records, melds in zip(table.meld_records, table.melds, strict=True):
        assert type(records) is bytes and len(records) == MELD_WIDTH * len(melds)
        assert records == b"".join(meld.record for meld in melds)
        decoded = [Meld.from_record(records[i:i + MELD_WIDTH]) for i in range(0, len(records), MELD_WIDTH)]
        assert [(m, m.claimed_tile) for m in decoded] == [(m, m.claimed_tile) for m in melds]


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
            forked = fork(game).table
            _check_buffers(forked)
            assert forked.ready_bytes == game.table.ready_bytes and forked.ready_bytes is not game.table.ready_bytes
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
    """The wall is a typed buffer (issue 30): bytes of kinds (or zipai cards), immutable, head and tail ints, and
    the lean turn's pack holds that very buffer."""
    wall = game.table.wall
    assert type(wall.tiles) is bytes and len(wall.tiles) == len(game.rules.tiles())
    assert sorted(wall.tiles) == sorted(game.rules.tiles())
    assert type(wall.head) is int and type(wall.tail) is int and 0 <= wall.head <= wall.tail <= len(wall.tiles)
    pack = getattr(game._flow, "_turn_pack", None)
    if pack is not None:
        assert any(item is wall.tiles for item in pack)


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_the_wall_is_bytes_dealt_restored_and_forked(name: str) -> None:
    for seed in range(3):
        for steps in (0, 9, 60, 400):
            game = _played(name, seed, steps)
            _check_wall(game)
            for snap in (game.snapshot(), json.loads(json.dumps(game.snapshot()))):
                restored = Game.from_snapshot(snap)
                _check_wall(restored)
                assert restored.table.wall.tiles == game.table.wall.tiles
                assert (restored.table.wall.head, restored.table.wall.tail) == (game.table.wall.head,
                                                                                game.table.wall.tail)
            forked = fork(game)
            _check_wall(forked)
            assert forked.table.wall.tiles is game.table.wall.tiles  # shared: bytes nobody can change
            assert forked.table.wall is not game.table.wall
            stacked = Game(name, seed=seed, dealer=0, claim_window="eligible", wall=list(game.table.wall.tiles))
            _check_wall(stacked)
            # a wall given as the bytes a table holds (or the shuffle returns) deals the same
            given = Game(name, seed=seed, dealer=0, claim_window="eligible", wall=game.table.wall.tiles)
            assert given.to_json() == Game(name, seed=seed, dealer=0, claim_window="eligible",
                                           wall=list(game.table.wall.tiles)).to_json()


def test_a_format_1_snapshot_restores_its_wall_into_bytes() -> None:
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


def _meld_games(count: int) -> list[Game]:
    """Played tables holding melds of every shape (chows, pungs, exposed, concealed and added kongs)."""
    games = []
    for name in ("guangdong", "yunxiao", "kawuxing"):
        for seed in range(count):
            game = _played(name, seed, 60 + 37 * seed % 400)
            if any(game.table.meld_records):
                games.append(game)
    return games


def test_meld_records_round_trip_through_both_snapshot_formats() -> None:
    shapes = set()
    for game in _meld_games(24):
        table = game.table
        _check_buffers(table)
        shapes |= {(m.type, m.concealed, m.added) for ms in table.melds for m in ms}
        snap = game.snapshot()
        # Format 2 writes each record as its token, one translate: type letter, first tile, 0/1, 0/1, seat, tile.
        tokens = snap["table"]["melds"]
        for seat_tokens, records in zip(tokens, table.meld_records, strict=True):
            assert "".join(seat_tokens).encode("ascii") == records.translate(bytes(
                ord("0123456789abcdefghijklmnopqrstuvwx"[k]) if k < 34 else ord("-") if k == NO_SEAT else k
                for k in range(256)))
        v1 = {**snap, "format": SNAPSHOT_FORMATS[0], "table": table.to_json()}
        for data in (snap, v1):
            restored = Game.from_snapshot(json.loads(json.dumps(data))).table
            _check_buffers(restored)
            assert restored.meld_records == table.meld_records
            assert [[m.claimed_tile for m in ms] for ms in restored.melds] == [
                [m.claimed_tile for m in ms] for ms in table.melds]
    assert {("chow", False, False), ("pung", False, False), ("kong", False, False), ("kong", True, False),
            ("kong", False, True)} <= shapes


@pytest.mark.parametrize(("token", "why"), [
    ("q50015", "not a meld token"),      # no such meld type
    ("p5001-", "not a meld token"),      # a source seat without its claimed tile
    ("p5101-", "not a meld token"),      # a concealed pung
    ("c00115", "not a meld token"),      # an added chow
    ("cw003w", "not a meld token"),      # a chow beyond its suit
    ("p5009z", "not a meld token"),      # no such seat or tile
    ("p500", "not a meld token"),        # a record cut short
])
def test_a_tampered_meld_record_in_a_snapshot_is_refused(token: str, why: str) -> None:
    game = next(g for g in _meld_games(6) if g.table.meld_records[0] or g.table.meld_records[1])
    snap = json.loads(json.dumps(game.snapshot()))
    seat = 0 if game.table.meld_records[0] else 1
    snap["table"]["melds"][seat][0] = token
    with pytest.raises(HupaiError, match=rf"snapshot\.table\.melds\[{seat}\]\[0\].*{why}"):
        Game.from_snapshot(snap)
    # A well-formed token of another meld than the one made: the tiles no longer add up.
    snap["table"]["melds"][seat][0] = "kx10--"
    with pytest.raises(HupaiError):
        Game.from_snapshot(snap)


def test_a_record_that_is_no_melds_is_refused_and_one_that_is_decodes() -> None:
    chow, pung, kong = MELD_CODES["chow"], MELD_CODES["pung"], MELD_CODES["kong"]
    for record in ([0, 5, 0, 0, 255, 255], [pung, 5, 2, 0, 255, 255], [chow, 32, 0, 0, 1, 32], [pung, 5],
                   [pung, 34, 0, 0, 255, 255], [pung, 5, 0, 0, 9, 5], [pung, 5, 0, 0, 1, 40], [kong, 5, 0, 0, 1, 5, 0]):
        with pytest.raises(InvalidHand):
            Meld.from_record(bytes(record))
    with pytest.raises(InvalidHand):
        Meld("pung", (5, 5, 5), claimed_from=-1)  # a record holds no such seat
    meld = Meld.from_record(bytes([pung, 5, 0, 0, 1, 5]))
    assert meld == Meld("pung", (5, 5, 5), claimed_from=1) and meld.claimed_tile == 5
    assert Meld.from_record(bytes([kong, 33, 1, 0, NO_SEAT, NO_SEAT])) == Meld("kong", (33,) * 4, concealed=True)
    assert Meld.from_record(Meld("chow", (9, 10, 11), claimed_from=0, claimed_tile=10).record).claimed_tile == 10
    # The type bytes are the token letters' places among the tile characters: a token is its record as tiles.
    assert {name: "0123456789abcdefghijklmnopqrstuvwx"[code] for name, code in MELD_CODES.items()} == {
        "chow": "c", "pung": "p", "kong": "k"}


@pytest.mark.parametrize(("claimed_from", "claimed_tile"), [
    (8, 5), (-1, 5), (True, 5), ("1", 5), (1, 34), (1, -1), (1, 5.0), (2**70, 5),
])
def test_a_meld_whose_source_or_claimed_tile_has_no_record_byte_is_refused(claimed_from: object,
                                                                          claimed_tile: object) -> None:
    with pytest.raises(InvalidHand, match="claimed_from must be a seat 0..7"):
        Meld("pung", (5, 5, 5), False, claimed_from, False, claimed_tile)  # type: ignore[arg-type]


def test_a_meld_with_a_seat_and_a_tile_in_range_has_them_in_its_record() -> None:
    meld = Meld("pung", (5, 5, 5), False, 7, False, 5)
    assert meld.record == bytes((MELD_CODES["pung"], 5, 0, 0, 7, 5))
    assert Meld.from_record(meld.record) == meld


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing"])
def test_the_ready_cache_is_bytes_and_the_rules_see_flags(name: str) -> None:
    """The engine's ready cache is a bytearray the core writes in place; the rules read ``table.ready[seat]`` as
    True, False or None (a read-only view, no list), each flag the rules' own answer; snapshots leave it out."""
    seen: set[bool | None] = set()
    for seed in range(3):
        game = Game(name, seed=seed, dealer=0, claim_window="eligible")
        table = game.table
        cache = table.ready_bytes
        rng = random.Random(seed)
        while not game.over:
            seat = game.seats_to_act[0]
            legal = game.legal_actions(seat)
            game.apply(legal[rng.randrange(len(legal))])
            assert table.ready_bytes is cache  # never replaced: written in place
            flags = table.ready
            assert len(flags) == table.num_players and flags[-1] is flags[table.num_players - 1]
            for other in range(table.num_players):
                flag = flags[other]
                assert flag is (None if cache[other] == READY_UNKNOWN else cache[other] == 1)
                seen.add(flag)
            assert flags[:] == list(flags)
        assert "ready" not in table.to_json() and "ready_bytes" not in table.to_json()
        with pytest.raises(TypeError):
            table.ready[0] = True  # type: ignore[index]  # read-only: the engine writes the bytes
    assert seen == {True, False, None}


@pytest.mark.parametrize("window", ["eligible", "all"])
def test_where_rules_test_wins_in_python_a_claim_window_opens_on_a_known_cache(window: str) -> None:
    """Yunxiao tests wins in Python, so the engine fills the ready cache before it asks for claims: the discarder's
    own flag is worked out at its discard (a 摸切 discard keeps it), every other seat not known (after the deal or a
    claim) at the window. Every flag is then the rules' answer for the seat's waiting hand."""
    windows = kept = 0
    for seed in range(4):
        game = Game("yunxiao", seed=seed, dealer=seed % 4, claim_window=window)
        table = game.table
        rules = game.rules
        rng = random.Random(seed)
        while not game.over:
            seat = game.seats_to_act[0]
            legal = game.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            before = table.ready_bytes[seat]
            drawn = table.drawn
            game.apply(action)
            if action.kind != "discard" or game.over or table.phase == "turn" and table.turn_seat == seat:
                continue
            windows += 1
            cache = table.ready_bytes
            assert READY_UNKNOWN not in cache, (seed, list(cache))
            for other in range(4):
                assert cache[other] == rules.ready(table, other), (seed, other)
            if action.tile == drawn and before != READY_UNKNOWN:
                kept += 1
                assert cache[seat] == before  # a 摸切 discard: the waiting hand, and its flag, as they were
    assert windows > 150 and kept > 5
