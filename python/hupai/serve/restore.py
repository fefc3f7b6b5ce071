"""Restoring a table's hand from storage: its last snapshot, checked whole against the action rows before it,
then the rows after it replayed through the engine (see :mod:`.storage` for what is stored)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..actions import Action
from ..errors import IllegalAction, InvalidState
from ..game import Game
from ..rules.base import Rules
from . import wire

__all__ = ["restored_hand"]


def restored_hand(stored: Mapping[str, Any], runtime: Mapping[str, Any], rows: list[tuple[int, int, dict[str, Any]]],
                  rules: Rules) -> tuple[Game, dict[str, Any], list[Action]]:
    """The hand a stored snapshot and the hand's action rows ``(seq, seat, action)`` give: ``(game, the
    snapshot with its actions, the actions after it)``. InvalidState (or another HupaiError) names what does
    not fit: rows that are not ``0..seq-1``, a snapshot that is not what its setup and the rows before it
    give, a row the engine refuses where it stands, a status the hand does not have."""
    seq = runtime["seq"]
    if [row[0] for row in rows] != list(range(len(rows))) or len(rows) != seq:
        raise InvalidState(f"hand {runtime['hand']}: the action rows are not 0..{seq - 1} "
                           f"(found {len(rows)} row(s), last seq {rows[-1][0] if rows else None})")
    actions = [wire.action_from_store(action, rules) for _, _, action in rows]  # in the table's notation
    if any(action.seat != seat for action, (_, seat, _) in zip(actions, rows, strict=True)):
        raise InvalidState(f"hand {runtime['hand']}: an action row's seat is not its action's")
    compact = json.loads(json.dumps([a.to_compact() for a in actions]))  # as JSON has them (lists)
    snapshot = dict(stored)
    if "actions" in snapshot:  # stored whole (before the action rows held them)
        base = len(snapshot["actions"])
        if base > seq or compact[:base] != snapshot["actions"]:
            raise InvalidState(f"hand {runtime['hand']}: the action rows are not the snapshot's actions")
    else:
        base = snapshot.pop("action_count")
        if type(base) is not int or not 0 <= base <= seq:
            raise InvalidState(f"hand {runtime['hand']}: snapshot.action_count {base!r} is not in 0..{seq}")
        snapshot["actions"] = compact[:base]
    # Checked whole: the snapshot's table must be what its setup and the rows before it give.
    game = Game.from_snapshot(snapshot, verify=True)
    for index in range(base, seq):
        try:
            game.apply(actions[index])
        except IllegalAction as error:
            raise InvalidState(f"hand {runtime['hand']}: action row {index}: {error}") from None
    if game.over != (runtime["status"] != "playing"):
        raise InvalidState(f"hand {runtime['hand']}: status {runtime['status']!r} but the hand is "
                           f"{'over' if game.over else 'in play'}")
    return game, snapshot, actions[base:]
