"""Spectators at the reference server (issue 24 item 2): ``GET /api/tables/{id}/watch``, its event stream, the
WebSocket hello ``{"watch": true}``; every spectator message is checked against the stored log like a seat's:
it is the spectator's view rebuilt from the log at its seq, and shows no concealed tile, no wall, no seed."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

import hupai
import pytest
from hupai.bots import GreedyBot
from hupai.game import Game
from hupai.serve.app import Settings
from hupai.serve.wire import facts_to_wire
from serve_helpers import int_lists, join, keys, new_table, open_client, play_ws

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _logs(sqlite_url: str, table_id: str) -> dict[int, str]:
    with sqlite3.connect(sqlite_url[len("sqlite:///"):]) as db:
        return dict(db.execute("SELECT hand, log FROM hupai_hands WHERE table_id = ?", (table_id,)).fetchall())


def assert_spectator_blind(message: dict[str, Any], log: str) -> None:
    """``message`` (a spectator's state at its ``seq``) against the hand's stored ``log``: it is exactly the
    spectator's view the log gives at that point, and holds no seat's concealed tiles (but a hand the rules or
    the result lay open), no drawn tile, not the live wall in order, no seed, no key naming them."""
    game = Game.replay(log, upto=message["seq"])
    assert message["observation"] == game.spectator_view()
    assert message["seat"] is None and message["decision"] is None
    assert message["facts"] == facts_to_wire(game.rules, game.observation(0).extras)  # as a seat's (table-ui)
    assert not keys(message) & {"wall", "seed", "snapshot", "token", "log", "setup", "private"}
    text = json.dumps(message)
    assert str(game.setup["seed"]) not in text
    view = message["observation"]
    assert view["hand"] == [] and view["drawn"] is None and view["legal_actions"] == []
    table = game.table
    n = game.rules.num_players
    open_hands = set(view["result"]["winners"]) if view["result"] else set()
    open_hands |= {s for s, shown in enumerate(view["extras"].get("liangdao", [False] * n)) if shown}
    hidden = [[k for k in range(len(table.hands[s])) for _ in range(table.hands[s][k])]
              for s in range(n) if s not in open_hands]
    wall = list(table.wall.tiles[table.wall.head:getattr(table.wall, "tail", len(table.wall.tiles))])
    drawn = getattr(table, "drawn", -1)
    if drawn >= 0 and view["phase"] in ("turn", "predraw"):
        assert view["tile"] is None  # the drawn tile's face is its drawer's
    for kinds in int_lists(message):
        for hand in hidden:
            assert not (len(hand) >= 4 and sorted(kinds) == hand), f"a concealed hand was shown: {hand}"
        if len(wall) >= 8 and len(kinds) >= 8:
            assert ",".join(map(str, wall[:8])) not in ",".join(map(str, kinds)), "the wall's order was shown"


def _watch(ws: Any, table_id: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "table": table_id, "watch": True})
    first: dict[str, Any] = ws.receive_json()
    return first


def _settled(client: Any, table_id: str, built: list[int] | None = None) -> dict[str, Any]:
    """The spectator's state once the table waits for its human seat 0 alone (the bots move at once, so it
    stays as it is until seat 0 acts or its time runs out); ``built`` is cleared before each poll."""
    for _ in range(500):
        if built is not None:
            built.clear()
        state: dict[str, Any] = client.get(f"/api/tables/{table_id}/watch").json()
        if state["timers"] and state["observation"]["to_act"] == [0]:
            return state
        time.sleep(0.01)
    raise AssertionError("the table never waited for seat 0 alone")


def _reply(ws: Any) -> dict[str, Any]:
    """The next message that is not a pushed state (the table may change meanwhile)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] != "state":
            return message


def _drain(ws: Any, until_status: str = "match_over") -> list[dict[str, Any]]:
    """The spectator's messages up to the first state of ``until_status``."""
    messages = []
    while True:
        message = ws.receive_json()
        messages.append(message)
        if message.get("type") == "state" and message["status"] == until_status:
            return messages


@pytest.mark.parametrize("rules", SYSTEMS)
def test_every_spectator_message_is_the_view_the_log_gives_and_hides_every_concealed_tile(
        client: Any, sqlite_url: str, rules: str) -> None:
    n = hupai.rules.get(rules).num_players
    table = new_table(client, rules=rules, bots=list(range(1, n)), seed=2**63 + 21, hands=2)
    token = join(client, table["id"])
    with client.websocket_connect("/api/ws") as watcher, client.websocket_connect("/api/ws") as ws:
        first = _watch(watcher, table["id"])
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        play_ws(ws, GreedyBot(5))
        ws.send_json({"type": "next"})
        play_ws(ws, GreedyBot(6), stop="match_over")
        watched = [first, *_drain(watcher)]
        watcher.send_json({"type": "events", "since": 3, "id": 9})
        events = _reply(watcher)
    logs = _logs(sqlite_url, table["id"])
    assert sorted(logs) == [0, 1]
    states = [m for m in watched if m["type"] == "state"]
    assert len(states) > 20 and {m["hand"] for m in states} == {0, 1}
    assert all("token" not in m for m in watched)
    for message in states:
        assert_spectator_blind(message, logs[message["hand"]])
        assert set(message) >= {"scores", "auto", "event_count", "timers", "status", "version", "ready", "bots"}
    final = Game.replay(logs[1])
    assert events["id"] == 9 and events["hand"] == 1
    assert events["events"] == final.spectator_events(3) and events["next"] == len(final.events)
    # The same over HTTP, no token needed.
    state = client.get(f"/api/tables/{table['id']}/watch").json()
    assert state == {**states[-1], "version": state["version"]} and state["status"] == "match_over"
    reply = client.get(f"/api/tables/{table['id']}/watch/events", params={"since": 0}).json()
    assert reply["events"] == final.spectator_events()


def test_a_spectator_sees_the_timers_of_whoever_is_to_act_and_cannot_act(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3], seed=None, claim_seconds=30, turn_seconds=60)
    join(client, table["id"])
    state = _settled(client, table["id"])
    assert state["type"] == "state" and state["seat"] is None and state["decision"] is None
    (timer,) = state["timers"]  # the seat to act's seconds left: its base (a turn's or a claim's) and its bank
    assert timer["seat"] == 0 and timer["bank"] > 0 and 0 < timer["deadline"] <= 60 + timer["bank"]
    assert state["observation"]["hand"] == []
    with client.websocket_connect("/api/ws") as watcher:
        assert _watch(watcher, table["id"])["seat"] is None
        for message in ({"type": "action", "decision": 0, "action": {"kind": "pass"}}, {"type": "next"},
                        {"type": "back"}):
            watcher.send_json(message)
            assert _reply(watcher)["code"] == "forbidden"
        watcher.send_json({"type": "ping", "id": "p"})
        assert _reply(watcher) == {"type": "pong", "id": "p"}
        watcher.send_json({"type": "events", "since": -1})
        assert _reply(watcher)["code"] == "malformed"
    # A token that opens no seat is still refused: a watch hello is one without a token.
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "watch": True, "token": "nope"})
        assert ws.receive_json()["code"] == "forbidden"
    for path in ("/api/tables/nope/watch", "/api/tables/nope/watch/events"):
        assert client.get(path).json()["code"] == "not_found"
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": "nope", "watch": True})
        assert ws.receive_json()["code"] == "not_found"
    assert client.get(f"/api/tables/{table['id']}/watch/events", params={"since": "x"}).status_code == 400
    page = client.get(f"/watch/{table['id']}")  # the browser table, in watch mode
    assert page.status_code == 200 and page.text == client.get("/").text


def test_spectators_per_table_are_capped_and_count_against_the_address(sqlite_url: str) -> None:
    with open_client(sqlite_url, max_spectators=1) as client:
        table = new_table(client, bots=[1, 2, 3], seed=None, claim_seconds=30)
        with client.websocket_connect("/api/ws") as one:
            assert _watch(one, table["id"])["type"] == "state"
            with client.websocket_connect("/api/ws") as two:
                assert _watch(two, table["id"])["code"] == "spectators"
        for _ in range(200):  # the first one has gone (its server side notices shortly): room again
            with client.websocket_connect("/api/ws") as again:
                if _watch(again, table["id"])["type"] == "state":
                    break
            time.sleep(0.01)
        else:
            raise AssertionError("a spectator's place was not freed when it left")
    for bad in (-1, 100_001, True, "9"):
        with pytest.raises(hupai.HupaiError, match="max_spectators"):
            Settings(max_spectators=bad)
    with open_client(sqlite_url, max_connections=1, http_rate=0.01, http_burst=4) as client:
        with client.websocket_connect("/api/ws") as one:
            assert _watch(one, table["id"])["type"] == "state"  # the hello takes one of the address's requests
            with client.websocket_connect("/api/ws") as two:
                assert two.receive_json()["code"] == "connections"  # refused before any hello
        codes = [client.get(f"/api/tables/{table['id']}/watch").status_code for _ in range(5)]
        assert codes[:3] == [200] * 3 and codes[3:] == [429] * 2


def test_the_view_is_built_once_per_change_however_many_watch(client: Any, monkeypatch: Any) -> None:
    """While a timer runs every message is built anew (its seconds left), but the spectator's view only once per
    change of the table."""
    built = []
    view = Game.spectator_view
    monkeypatch.setattr(Game, "spectator_view", lambda game: built.append(1) or view(game))
    table = new_table(client, bots=[1, 2, 3], seed=None, claim_seconds=30, turn_seconds=60)
    join(client, table["id"])
    state = _settled(client, table["id"], built)
    assert built == [1]
    built.clear()
    with client.websocket_connect("/api/ws") as one, client.websocket_connect("/api/ws") as two:
        seen = [_watch(one, table["id"]), _watch(two, table["id"])]
        seen += [client.get(f"/api/tables/{table['id']}/watch").json() for _ in range(3)]
    assert {m["version"] for m in seen} == {state["version"]} and all(m["timers"] for m in seen)
    assert built == []  # built for the first poll at this version, then reused by all five


def test_the_watch_poll_answers_once_the_table_moves_on(client: Any) -> None:
    """``GET .../watch?after=V&wait=S``: at once if the table is past V, else when it changes or S runs out."""
    table = new_table(client, bots=[1, 2, 3], seed=None, claim_seconds=30, turn_seconds=60)
    token = join(client, table["id"])
    state = _settled(client, table["id"])
    assert client.get(f"/api/tables/{table['id']}/watch", params={"after": state["version"] - 1, "wait": 5}
                      ).json()["version"] == state["version"]
    started = time.monotonic()
    same = client.get(f"/api/tables/{table['id']}/watch", params={"after": state["version"], "wait": 0.3}).json()
    assert same["version"] == state["version"] and time.monotonic() - started >= 0.25  # nothing moved: waited
    with client.websocket_connect("/api/ws") as ws:  # the human seat acts: the next poll sees the change
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        play_ws(ws, GreedyBot(3))
    moved = client.get(f"/api/tables/{table['id']}/watch", params={"after": state["version"], "wait": 5}).json()
    assert moved["version"] > state["version"] and moved["status"] == "match_over"
    bad = client.get(f"/api/tables/{table['id']}/watch", params={"after": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "malformed"


def test_a_spectators_bad_frames_are_refused_as_a_seats(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3], seed=None, claim_seconds=30)
    with client.websocket_connect("/api/ws") as watcher:
        _watch(watcher, table["id"])
        watcher.send_bytes(b"\x00")
        assert _reply(watcher)["code"] == "binary"
        watcher.send_text("[1]")
        assert _reply(watcher)["code"] == "malformed"
        watcher.send_json({"type": "shout"})
        assert _reply(watcher)["code"] == "malformed"
        watcher.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert _reply(watcher)["code"] == "too_large"
