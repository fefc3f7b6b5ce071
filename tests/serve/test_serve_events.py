"""The server sends each seat its public event stream (issue 22 item 3): ``GET .../events?since=K`` and the
WebSocket's ``events`` message give ``Game.events_for``'s stream, in pieces that add up, never another seat's
draw, and every state message says how many events there are."""

from __future__ import annotations

from typing import Any

from hupai.bots import GreedyBot
from serve_helpers import auth, join, new_table, wire_action


def _read_all(client: Any, table_id: str, token: str, since: int = 0) -> list[dict[str, Any]]:
    reply = client.get(f"/api/tables/{table_id}/events", params={"since": since}, headers=auth(token))
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    assert data["type"] == "events" and data["since"] == since and data["next"] == since + len(data["events"])
    events: list[dict[str, Any]] = data["events"]
    return events


def test_a_seat_reads_its_event_stream_in_pieces_that_add_up(client: Any) -> None:
    table = new_table(client, rules="kawuxing", bots=[1, 2], seed=5)
    token = join(client, table["id"], 0)
    bot = GreedyBot(0)
    read: list[dict[str, Any]] = []
    for _ in range(60):
        state = client.get(f"/api/tables/{table['id']}/state", params={"wait": 2}, headers=auth(token)).json()
        read.extend(_read_all(client, table["id"], token, len(read)))
        assert len(read) >= state["event_count"]  # the bots may have moved on since the state was read
        if state["status"] != "playing":
            break
        if state["decision"] is not None:
            client.post(f"/api/tables/{table['id']}/action", headers=auth(token),
                        json={"decision": state["decision"], "action": wire_action(bot, state["observation"])})
    assert read == _read_all(client, table["id"], token)  # one read gives what the pieces gave
    draws = [event for event in read if event["type"] in ("deal", "draw")]
    assert draws and all(event.get("tile") is None and "tiles" not in event
                         for event in draws if event.get("seat") != 0)  # another seat's tiles never shown
    assert any("tiles" in event for event in draws if event.get("seat") == 0)  # its own deal, shown


def test_the_websocket_answers_events_and_bad_reads_are_refused(client: Any) -> None:
    table = new_table(client, rules="guangdong", bots=[1, 2, 3])
    token = join(client, table["id"], 0)
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        state = ws.receive_json()
        ws.send_json({"type": "events", "since": 0, "id": 1})
        while (reply := ws.receive_json())["type"] != "events":
            pass
        assert reply["id"] == 1 and len(reply["events"]) >= state["event_count"] > 0
        assert reply["events"][0]["type"] == "deal"
        ws.send_json({"type": "events", "since": -1})
        while (reply := ws.receive_json())["type"] != "error":
            pass
        assert reply["code"] == "malformed"
    for since in ("x", "-3", "1000000000"):
        answer = client.get(f"/api/tables/{table['id']}/events", params={"since": since}, headers=auth(token))
        assert answer.status_code == 400 and answer.json()["code"] == "malformed"
    assert client.get(f"/api/tables/{table['id']}/events").status_code == 403  # a seat's token, always
    # A count past the end (kept from an earlier, longer hand) gets nothing, and next says where the stream ends.
    read = client.get(f"/api/tables/{table['id']}/events", params={"since": 0}, headers=auth(token)).json()
    past = client.get(f"/api/tables/{table['id']}/events", params={"since": 100_000}, headers=auth(token)).json()
    assert past["events"] == [] and past["hand"] == read["hand"]
    assert len(read["events"]) <= past["next"] < 100_000  # (the bots may have moved in between)
