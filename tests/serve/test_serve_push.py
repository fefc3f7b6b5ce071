"""What the WebSocket pushes: the seat's newest stored state. At a table whose bots move with no think time, a
state that the next bot move supersedes at once is not pushed (the one that move leaves is): a connection
gets about one state per decision of its own instead of one per action, and never a state already out of
date. With a think time, the other seats' moves are pushed as they happen."""

from __future__ import annotations

from typing import Any

from hupai.bots import GreedyBot
from serve_helpers import join, new_table, play_ws


def _play(client: Any, **config: Any) -> tuple[list[dict[str, Any]], int]:
    """Seat 0 played over the WebSocket by GreedyBot through one hand against three bots: (the states
    received, the actions the hand stored)."""
    table = new_table(client, bots=[1, 2, 3], hands=1, **config)
    token = join(client, table["id"])
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        messages = play_ws(ws, GreedyBot(5))
    states = [m for m in messages if m["type"] == "state"]
    return states, states[-1]["seq"]


def test_a_state_a_bot_supersedes_at_once_is_not_pushed(client: Any) -> None:
    states, stored = _play(client, think_ms=0, seed=21)
    versions = [s["version"] for s in states]
    assert versions == sorted(set(versions))  # each newer than the last
    assert states[-1]["status"] in ("hand_over", "match_over")  # the last one is always pushed
    # One state per decision of the seat (and the deal's), not one per action: the seat decides in a quarter
    # of the claim windows and turns, the bots in the rest.
    assert stored > 40 and len(states) < stored / 2, (len(states), stored)
    # Every pushed state of the hand in play but the first (the deal's) asks the seat something.
    idle = [(s["seq"], s["observation"]["phase"], s["observation"]["to_act"]) for s in states[1:]
            if s["status"] == "playing" and s["decision"] is None]
    assert not idle, idle


def test_with_a_think_time_the_bots_moves_are_shown_as_they_happen(client: Any) -> None:
    """The bots wait before each move, so the states between them are pushed: the seat sees the other seats'
    turns one by one (only answers due at the same moment, the bots' passes in one claim window, are shown
    together)."""
    states, stored = _play(client, think_ms=50, seed=21)
    versions = [s["version"] for s in states]
    assert versions == sorted(set(versions))
    others = [s for s in states if s["status"] == "playing" and s["decision"] is None]
    assert len(others) > 10 and len(states) > stored / 2, (len(others), len(states), stored)
