"""Time and absence at the reference server (issue 20 item 6): a timer on every decision of a human seat with a
time bank refilled per hand, stored with the table; a seat that times out, disconnects or stops polling is
played by the server's bot until it comes back, and every seat sees who is on auto; a seat link opens the seat
on another client, which takes it over. Timers here are tenths of a second, never long sleeps."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hupai.bots import GreedyBot
from hupai.observation import Observation
from hupai.serve.seats import SeatClock
from serve_helpers import auth, join, new_table, open_client, play_ws


def until(ws: Any, check: Any, limit: int = 3000) -> dict[str, Any]:
    """Read the WebSocket's messages until a state message passes ``check``."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state" and check(message):
            return message
    raise AssertionError("no such state came")


@contextmanager
def seated(client: Any, **config: Any) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """A new table (``config``) with seat 0 joined over a WebSocket: (table id, the socket, its first state that
    asks the seat to decide)."""
    table = new_table(client, bots=[1, 2, 3], **config)
    token = join(client, table["id"])
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        yield table["id"], ws, until(ws, lambda m: m["decision"] is not None)


def info(client: Any, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return data


def wait_info(client: Any, table_id: str, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = info(client, table_id)
        if check(data):
            return data
        time.sleep(0.02)
    raise AssertionError("the table never got there")


def stored_runtime(client: Any, table_id: str) -> dict[str, Any]:
    host = client.app.state.host
    (stored,) = client.portal.call(host.storage.load_tables, table_id)
    runtime: dict[str, Any] = stored.runtime
    return runtime


def test_the_seat_clock_spends_the_bank_beyond_the_base_and_refills_it() -> None:
    clock = SeatClock([0, 2], turn=10.0, claim=4.0, bank=30.0, runtime={}, now=0.0)
    assert clock.deadline(0, 100.0, claim=False) == 140.0 and clock.deadline(0, 100.0, claim=True) == 134.0
    clock.spend(0, 100.0, claim=False, now=109.0)  # within the base: the bank is untouched
    assert clock.bank[0] == 30.0
    clock.spend(0, 100.0, claim=False, now=122.5)
    assert clock.bank[0] == 17.5 and clock.bank[2] == 30.0
    clock.spend(0, 100.0, claim=True, now=200.0)
    assert clock.bank[0] == 0.0  # never below zero
    clock.refill()
    assert clock.bank == {0: 30.0, 2: 30.0}
    assert clock.deadline(1, 0.0, claim=False) is None  # not a human seat
    off = SeatClock([0], turn=0.0, claim=5.0, bank=30.0, runtime={}, now=0.0)
    assert off.deadline(0, 0.0, claim=False) is None and off.deadline(0, 0.0, claim=True) == 35.0
    # Stored and read back.
    clock.bank[2] = 3.25
    clock.auto.add(2)
    again = SeatClock([0, 2], turn=10.0, claim=4.0, bank=30.0, runtime=clock.to_dict(), now=0.0)
    assert again.bank == clock.bank and again.auto == {2}


def test_a_silent_seat_times_out_on_its_own_turn_and_the_bot_plays_it_until_it_is_back(sqlite_url: str) -> None:
    timers = {"turn_seconds": 0.3, "bank_seconds": 0.2, "claim_seconds": 0.3, "think_ms": 0, "seed": 3}
    with open_client(sqlite_url) as client, seated(client, **timers) as (table_id, ws, first):
        assert 0 < first["deadline"] <= 0.5 and first["bank"] == 0.2 and first["auto"] == []
        # Silent: the timer runs out (base, then the bank), the seat goes on auto and the server's bot plays it.
        on_auto = until(ws, lambda m: m["auto"] == [0])
        assert on_auto["bank"] == 0.0 and on_auto["deadline"] is None
        later = until(ws, lambda m: m["seq"] > on_auto["seq"] + 8)
        assert later["auto"] == [0] and later["status"] == "playing"
        assert info(client, table_id)["seats"][0]["auto"] is True  # everyone sees it
        runtime = stored_runtime(client, table_id)
        assert runtime["auto"] == [0] and runtime["bank"]["0"] == 0.0
        ws.send_json({"type": "back"})  # back: the bot stops playing the seat
        back = until(ws, lambda m: m["auto"] == [])
        assert stored_runtime(client, table_id)["auto"] == []
        assert info(client, table_id)["seats"][0]["auto"] is False
        # The seat's next decision (the state that says it is back may be it: the bots' moves in between, with
        # no think time, are not pushed one by one).
        mine = back if back["decision"] is not None else \
            until(ws, lambda m: m["decision"] is not None or m["status"] != "playing")
        assert mine["status"] != "playing" or mine["deadline"] is not None


def test_a_seat_on_auto_comes_back_with_any_action(sqlite_url: str) -> None:
    """An action, even one that comes too late (refused as stale), takes the seat back."""
    timers = {"turn_seconds": 0.2, "bank_seconds": 0, "claim_seconds": 0.2, "think_ms": 100, "seed": 5}
    with open_client(sqlite_url) as client, seated(client, **timers) as (_, ws, first):
        until(ws, lambda m: m["auto"] == [0])
        legal = first["observation"]["legal_actions"][0]
        ws.send_json({"type": "action", "decision": first["decision"], "action": legal})
        assert until(ws, lambda m: m["auto"] == [])["auto"] == []


def test_the_bank_is_spent_stored_kept_over_a_restart_and_refilled_per_hand(sqlite_url: str) -> None:
    with open_client(sqlite_url) as client:
        table = new_table(client, bots=[1, 2, 3], turn_seconds=0.05, bank_seconds=30, claim_seconds=0.05,
                          think_ms=0, seed=8, hands=2)
        token = join(client, table["id"])
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": token})
            state = until(ws, lambda m: m["decision"] is not None)
            time.sleep(0.35)  # 0.3 s beyond the base come out of the bank
            action = GreedyBot(1).act(Observation.from_json(state["observation"])).to_dict()
            ws.send_json({"type": "action", "decision": state["decision"], "action": action})
            spent = until(ws, lambda m: m["seq"] > state["seq"] and m["decision"] != state["decision"])
            assert 29.0 < spent["bank"] < 29.75
        bank = stored_runtime(client, table["id"])["bank"]["0"]
        assert bank == spent["bank"]
    with open_client(sqlite_url) as client:  # restarted: the bank is what was stored
        again = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
        assert again["bank"] == bank
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": token})
            play_ws(ws, GreedyBot(2))
            ws.send_json({"type": "next"})
            dealt = until(ws, lambda m: m["hand"] == 1 and m["status"] == "playing")
            assert dealt["bank"] == 30.0  # a new hand: the bank is full again


def test_a_disconnected_seat_goes_on_auto_and_a_hello_takes_it_back(sqlite_url: str) -> None:
    with open_client(sqlite_url, absent_seconds=0.2) as client:
        table = new_table(client, bots=[1, 2, 3], turn_seconds=0, claim_seconds=0, think_ms=20, seed=9, hands=3)
        token = join(client, table["id"])
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": token})
            until(ws, lambda m: m["decision"] is not None)
            assert not info(client, table["id"])["seats"][0]["auto"]
        # Gone (no timer runs on this table): after the grace the server's bot plays the seat, hands go on.
        wait_info(client, table["id"], lambda i: i["seats"][0]["auto"] and i["hand"] >= 1)
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": token})
            back = until(ws, lambda m: m["auto"] == [])
            assert back["seat"] == 0
            assert info(client, table["id"])["seats"][0]["auto"] is False


def test_a_seat_that_stops_polling_goes_on_auto(sqlite_url: str) -> None:
    with open_client(sqlite_url, absent_seconds=0.3) as client:
        table = new_table(client, bots=[1, 2, 3], turn_seconds=0, claim_seconds=0, think_ms=0, seed=10)
        token = join(client, table["id"])
        headers = auth(token)
        deadline = time.monotonic() + 0.6
        while time.monotonic() < deadline:  # polling: here, so never on auto, though it never acts
            state = client.get(f"/api/tables/{table['id']}/state", params={"wait": 0.1, "after": 10**6},
                               headers=headers).json()
            assert state["auto"] == []
        wait_info(client, table["id"], lambda i: i["seats"][0]["auto"] or i["status"] != "playing")
        assert info(client, table["id"])["seats"][0]["auto"]


def test_a_seat_link_opens_the_seat_on_a_second_client_which_takes_it_over(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3], seed=11)
    token = join(client, table["id"])
    page = client.get(f"/t/{table['id']}")
    assert page.status_code == 200 and "table.js" in page.text
    script = client.get("/static/table.js").text
    assert "copy-link" in script and "location.hash" in script and "#seat=" in script
    with client.websocket_connect("/api/ws") as first:
        first.send_json({"type": "hello", "table": table["id"], "token": token})
        assert until(first, lambda m: True)["seat"] == 0
        with client.websocket_connect("/api/ws") as second:  # the link opened on another device
            second.send_json({"type": "hello", "table": table["id"], "token": token})
            for _ in range(50):
                message = first.receive_json()
                if message["type"] == "error":
                    break
            assert message["code"] == "replaced"
            with pytest.raises(Exception):  # noqa: B017  (the first connection was closed)
                first.receive_json()
            final = play_ws(second, GreedyBot(3))  # the second plays the seat to the end
            assert {m["seat"] for m in final if m["type"] == "state"} == {0}
            assert final[-1]["status"] == "match_over"


def test_a_bad_timer_is_refused(client: Any) -> None:
    for bad in ({"turn_seconds": -1}, {"turn_seconds": 601}, {"bank_seconds": 4000}, {"bank_seconds": "5"},
                {"turn_seconds": True}):
        reply = client.post("/api/tables", json={"rules": "guangdong", **bad})
        assert reply.status_code == 400 and reply.json()["code"] == "malformed", reply.text
    config = new_table(client, bots=[1, 2, 3], seed=None)["config"]
    assert config["turn_seconds"] == 30.0 and config["bank_seconds"] == 60.0
