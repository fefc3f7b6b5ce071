"""``_core.lean_turn``, the lean turn's one crossing (cpp/register_turn.cpp): it writes to the engine's own lists,
so a malformed argument (an engine bug, never a player's action: players reach it only with a legal discard)
must raise before anything changes. Its results on real tables are compared with the general path in
tests/game/test_lean_turn.py."""

from __future__ import annotations

import copy

import pytest
from hupai._core import lean_turn
from hupai.actions import ACTIONS
from hupai.game import Game


def _ready_game() -> tuple[Game, list]:
    game = Game("guangdong", seed=7, dealer=0, claim_window="eligible")
    flow = game._flow
    table = game.table
    seat = table.turn_seat
    tile = next(k for k in range(34) if table.hands[seat][k])
    wall = table.wall
    args = [flow._turn_pack, ACTIONS.discard[seat][tile], seat, tile, table.drawn, wall.head,
            wall.tail - flow._dead_wall, flow._forms, flow._chowers[seat], table.ready]
    return game, args


def _state(game: Game) -> tuple:
    return copy.deepcopy((game.table.to_json(), list(game._flow.events), list(game.table.ready)))


def _with(args: list, index: int, value: object) -> list:
    out = list(args)
    out[index] = value
    return out


def _pack_with(args: list, item: int, value: object) -> list:
    pack = list(args[0])
    pack[item] = value
    return _with(args, 0, tuple(pack))


@pytest.mark.parametrize("change", [
    lambda a: a[:9],                                    # an argument missing
    lambda a: _with(a, 0, a[0][:5]),                    # a short pack
    lambda a: _with(a, 2, 4),                           # no such seat
    lambda a: _with(a, 2, True),                        # a bool for a seat
    lambda a: _with(a, 3, 34),                          # no such kind
    lambda a: _with(a, 3, next(k for k in range(34) if not a[0][0][a[2]][k])),  # a tile not held
    lambda a: _with(a, 5, 10_000),                      # a head beyond the wall
    lambda a: _with(a, 7, 0),                           # no winning form
    lambda a: _with(a, 8, 16),                          # a chow mask beyond four seats
    lambda a: _with(a, 9, [None, None, "yes", None]),   # a ready flag that is not one
    lambda a: _with(a, 9, [None] * 3),                  # a ready cache of another table size
    lambda a: _pack_with(a, 0, [bytes(34)] * 4),        # hands that cannot be written
    lambda a: _pack_with(a, 1, [[]] * 3),               # melds of another table size
    lambda a: _pack_with(a, 2, [(), (), (), ()]),       # discards that are not lists
    lambda a: _pack_with(a, 3, [0.0] * 4),              # counters that are not ints
    lambda a: _pack_with(a, 6, [[], [], [], []]),       # 漏胡 blocks that are not sets
    lambda a: _pack_with(a, 8, ["1m"] * 136),           # a wall of strings
    lambda a: _pack_with(a, 11, ACTIONS.discard[:2]),   # discard actions for two seats only
])
def test_lean_turn_rejects_malformed_input_and_changes_nothing(change):
    game, args = _ready_game()
    before = _state(game)
    with pytest.raises((TypeError, ValueError)):
        lean_turn(*change(args))
    assert _state(game) == before


def test_lean_turn_refuses_a_fifth_copy_before_discarding():
    """The next seat would draw a fifth copy of a kind (a corrupt wall): refused with the hands unchanged."""
    game, args = _ready_game()
    table = game.table
    wall = table.wall
    nxt = (args[2] + 1) % 4
    kind = wall.tiles[wall.head]
    table.hands[nxt][kind] = 4
    before = _state(game)
    with pytest.raises(ValueError, match="fifth"):
        lean_turn(*args)
    assert _state(game) == before


def test_lean_turn_plays_the_discard_and_the_draw():
    """No claim: the discard, the draw and the next turn's discards (the prebuilt actions), in one call."""
    for seed in range(40):
        game = Game("guangdong", seed=seed, dealer=0, claim_window="eligible")
        table = game.table
        flow = game._flow
        tile = next(k for k in range(34) if table.hands[0][k] and k != table.drawn)
        wall = table.wall
        head = wall.head
        got = lean_turn(flow._turn_pack, ACTIONS.discard[0][tile], 0, tile, table.drawn, head,
                        wall.tail - flow._dead_wall, flow._forms, flow._chowers[0], table.ready)
        if isinstance(got, int):
            continue  # someone may claim it: the flow opens the window (the general path's tests)
        drawn = wall.tiles[head]
        assert table.discards[0] == [tile] and table.discards_made[0] == 1 and table.draws[1] == 1
        assert flow.events[-2] is ACTIONS.discard[0][tile] and flow.events[-1] == ("draw", 1, drawn, (), "wall")
        assert table.hands[1][drawn] >= 1 and sum(table.hands[1]) == 14
        assert got is None or got == tuple(ACTIONS.discard[1][k] for k in range(34) if table.hands[1][k])
        return
    raise AssertionError("no unclaimable discard in 40 deals")
