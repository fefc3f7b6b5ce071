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
    keep = getattr(table, "drawn", -1) if other == getattr(table, "turn_seat", -2) else -1
    done = 0
    for i in range(wall.head, wall.tail):
        kind = next((k for k in range(len(hand)) if hand[k] and k != keep and k != wall.tiles[i]), None)
        if kind is None or done == swaps:
            break
        hand[kind] -= 1
        hand[wall.tiles[i]] += 1
        wall.tiles[i] = kind
        done += 1
    if hasattr(table, "ready"):
        table.ready = [None] * twin.rules.num_players
    twin._legal = {}
    return twin
