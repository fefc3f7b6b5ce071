"""A game whose other seat's concealed tiles differ: what a seat sees must not change (hidden-information tests)."""

from __future__ import annotations

import json

from hupai.game import Game


def blind_twin(game: Game, other: int, swaps: int = 3) -> Game:
    """A copy of ``game`` (through the JSON a server stores) with up to ``swaps`` of seat ``other``'s concealed
    tiles exchanged for unseen wall tiles (its drawn tile kept), the rule facts that follow from a hand cleared."""
    twin = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
    table = twin.table
    wall, hand = table.wall, table.hands[other]
    tiles = bytearray(wall.tiles)  # the wall's bytes cannot change: changed here, then given back
    keep = getattr(table, "drawn", -1) if other == getattr(table, "turn_seat", -2) else -1
    done = 0
    for i in range(wall.head, wall.tail):
        kind = next((k for k in range(len(hand)) if hand[k] and k != keep and k != tiles[i]), None)
        if kind is None or done == swaps:
            break
        hand[kind] -= 1
        hand[tiles[i]] += 1
        tiles[i] = kind
        done += 1
    set_wall_tiles(twin, tiles)
    if hasattr(table, "forget_ready"):  # a mahjong table: its ready cache, not known again
        table.forget_ready()
    twin._legal = {}
    return twin


def blind_table(game: Game) -> Game:
    """A copy of ``game`` in which everything a spectator may not see is changed: every seat's concealed tiles, its
    drawn tile included, exchanged for live wall tiles of other kinds (as many as the live wall allows; a Kawuxing
    亮倒 hand, which the rule shows, is kept), the rest of the live wall reversed, another seed."""
    twin = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
    table = twin.table
    wall = table.wall
    tiles = bytearray(wall.tiles)  # the wall's bytes cannot change: changed here, then given back
    tail = getattr(wall, "tail", len(wall.tiles))
    shown = getattr(table, "extras", {}).get("liangdao") or [False] * twin.rules.num_players
    drawer = table.turn_seat if getattr(table, "drawn", -1) >= 0 else -1
    at = wall.head
    for seat, hand in enumerate(table.hands):
        if shown[seat]:
            continue
        redraw = seat == drawer
        for kind in [k for k in range(len(hand)) for _ in range(hand[k])]:
            while at < tail and tiles[at] == kind:
                at += 1
            if at >= tail:
                break
            new = tiles[at]
            hand[kind] -= 1
            hand[new] += 1
            tiles[at] = kind
            at += 1
            if redraw and kind == table.drawn:
                table.drawn, redraw = new, False
    tiles[wall.head:tail] = tiles[wall.head:tail][::-1]
    set_wall_tiles(twin, tiles)
    if hasattr(table, "forget_ready"):  # a mahjong table: its ready cache, not known again
        table.forget_ready()
    twin.setup["seed"] = (twin.setup["seed"] + 1) % 2**64
    twin._legal = {}
    return twin


def set_wall_tiles(game: Game, tiles: bytes | bytearray) -> None:
    """Give ``game``'s wall other tiles (a test's stacked change: the engine never replaces them), and the
    mahjong flow's lean-turn pack, which holds the wall's bytes, the new ones."""
    game.table.wall.tiles = bytes(tiles)
    pack = getattr(game._flow, "_pack_turn", None)
    if pack is not None:
        pack()
