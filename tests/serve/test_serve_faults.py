"""Faults strand nobody: the server over a storage that fails writes (the Nth, every Nth, read-only for a while,
a write that hangs and times out, a write stored whose answer is lost), with a human seat played over HTTP and
bot seats, in every rule system, on SQLite and PostgreSQL. Nothing is acknowledged that is not stored; once
the storage answers again every seat can act and every table finishes; the driver logs one line per outage,
not a traceback a second."""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections import Counter
from typing import Any

import pytest
from faulty_db import FaultyDatabase
from hupai.bots import GreedyBot, RandomBot
from hupai.serve import commit
from hupai.serve.app import Settings, create_app
from hupai.serve.storage import open_database
from serve_helpers import auth, join, new_table, wire_action
from test_serve_storage import check_stored_table, storage_call

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

RULES = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]
PLAYERS = {"guangdong": 4, "yunxiao": 4, "kawuxing": 3, "waihuzi": 3}


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver's back-off, shortened so that an outage of a second is over in a second."""
    monkeypatch.setattr(commit, "RETRY_FIRST", 0.02)
    monkeypatch.setattr(commit, "RETRY_MAX", 0.2)


def faulty_client(url: str, **settings: Any) -> tuple[TestClient, FaultyDatabase]:
    db = FaultyDatabase(open_database(url))
    return TestClient(create_app(db, Settings(**{"http_rate": 1e6, "http_burst": 1e6, **settings}))), db


def play_through(client: TestClient, table_id: str, token: str, bot: Any, *,
                 timeout: float = 120.0) -> tuple[list[tuple[int, int, dict[str, Any]]], Counter[str]]:
    """Play a seat over HTTP to the match's end, through refusals: a 503 is answered by polling the state
    again and answering the decision it shows. Returns the acknowledged ``(hand, seq, action)`` and the
    refusals by code."""
    headers = auth(token)
    acked: list[tuple[int, int, dict[str, Any]]] = []
    refused: Counter[str] = Counter()
    version = -1
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/tables/{table_id}/state", params={"after": version, "wait": 0.5},
                           headers=headers).json()
        version = state["version"]
        if state["status"] == "match_over":
            return acked, refused
        if state["status"] == "hand_over":
            if state["seat"] not in state["ready"]:
                reply = client.post(f"/api/tables/{table_id}/next", headers=headers)
                if reply.status_code != 200:
                    refused[reply.json()["code"]] += 1
                    version = -1
            continue
        if state["decision"] is None:
            continue
        action = wire_action(bot, state["observation"])
        reply = client.post(f"/api/tables/{table_id}/action", headers=headers,
                            json={"decision": state["decision"], "action": action})
        if reply.status_code == 200:
            acked.append((reply.json()["hand"], reply.json()["seq"], {**action, "seat": state["seat"]}))
        else:
            refused[reply.json()["code"]] += 1
            version = -1  # look again at once
    raise AssertionError(f"the match did not end in time (acked {len(acked)}, refused {dict(refused)})")


def check_acked(client: TestClient, table_id: str, acked: list[tuple[int, int, dict[str, Any]]]) -> None:
    """Every acknowledged action is stored, once, at the seq its ack named."""
    assert len({(hand, seq) for hand, seq, _ in acked}) == len(acked)
    rows = {hand: storage_call(client, "actions", table_id, hand) for hand in {h for h, _, _ in acked}}
    for hand, seq, action in acked:
        assert rows[hand][seq][2] == action


@pytest.mark.parametrize("rules", RULES)
def test_a_match_finishes_through_every_kind_of_failed_write(db_url: str, rules: str,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="hupai.serve")
    client, db = faulty_client(db_url)
    with client:
        n = PLAYERS[rules]
        bots_only = new_table(client, rules=rules, bots=list(range(n)), hands=2, seed=5, bot="random")
        table = new_table(client, rules=rules, bots=list(range(1, n)), hands=2, seed=6)
        token = join(client, table["id"], 0)
        start = db.writes
        db.fail_every(4, start, 60)                  # every 4th write for a while: connections dropped
        db.hang_writes |= {start + 70, start + 71}   # two writes that time out
        db.lost_acks |= {start + 80, start + 95}     # two writes stored whose answer is lost
        outage = threading.Timer(1.0, lambda: setattr(db, "read_only", True))
        back = threading.Timer(2.0, lambda: setattr(db, "read_only", False))
        outage.start()
        back.start()
        try:
            acked, refused = play_through(client, table["id"], token, GreedyBot(3))
        finally:
            outage.cancel()
            back.cancel()
            db.read_only = False
        assert db.refused > 0 and acked
        assert refused.keys() <= {"unavailable", "stale"}, refused
        deadline = time.monotonic() + 120
        while client.get(f"/api/tables/{bots_only['id']}").json()["status"] != "match_over":
            assert time.monotonic() < deadline, "the bots' table did not finish"
            time.sleep(0.05)
        for table_id in (table["id"], bots_only["id"]):
            check_stored_table(client, table_id)
            assert len(storage_call(client, "hands", table_id)) == 2
        check_acked(client, table["id"], acked)
    # The driver said so in a line per outage, not a traceback per try.
    driver = [r for r in caplog.records if "failed, retrying" in r.getMessage()]
    assert driver and not any(r.exc_info for r in driver), [r.getMessage() for r in driver if r.exc_info]
    assert not any(r.exc_info for r in caplog.records)  # no traceback anywhere: every failure was the storage's
    assert len(driver) <= db.refused + len(db.lost_acks)


@pytest.mark.parametrize("rules", RULES)
def test_a_failed_write_keeps_every_pending_decision_answerable(sqlite_url: str, rules: str) -> None:
    """commit.revert (Table._revert) used to renumber the pending decisions without publishing them: a seat asked
    before the last action (what is left of a claim window that asked several seats) kept answering the old number and
    was refused as stale for ever. Now the numbers stay what the seats were shown."""
    client, db = faulty_client(sqlite_url)
    with client:
        n = PLAYERS[rules]
        table = new_table(client, rules=rules, bots=[], seed=None)
        tokens = [join(client, table["id"], seat) for seat in range(n)]
        bot = RandomBot(4)
        for _ in range(400):
            states = [client.get(f"/api/tables/{table['id']}/state", headers=auth(t)).json() for t in tokens]
            asked = [s for s in states if s["decision"] is not None]
            assert states[0]["status"] == "playing", "no window with an old decision in this hand"
            old = [s for s in asked if s["decision"] < s["seq"]]
            if old:
                break
            state = asked[0]
            action = wire_action(bot, state["observation"])
            reply = client.post(f"/api/tables/{table['id']}/action", headers=auth(tokens[state["seat"]]),
                                json={"decision": state["decision"], "action": action})
            assert reply.status_code == 200, reply.text
        else:
            raise AssertionError("no window with an old decision")
        # A seat asked before the last action (the rest of a claim window): the next write fails.
        first = asked[0]
        db.fail_writes.add(db.writes + 1)
        action = wire_action(bot, first["observation"])
        reply = client.post(f"/api/tables/{table['id']}/action", headers=auth(tokens[first["seat"]]),
                            json={"decision": first["decision"], "action": action})
        assert reply.status_code == 503 and reply.json()["code"] == "unavailable"
        # Every seat still holds the decision it was shown, and answering it is accepted.
        for state in asked:
            again = client.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[state["seat"]])).json()
            assert again["decision"] == state["decision"] and again["seq"] == state["seq"]
        seat = old[0]["seat"]
        action = wire_action(bot, old[0]["observation"])
        reply = client.post(f"/api/tables/{table['id']}/action", headers=auth(tokens[seat]),
                            json={"decision": old[0]["decision"], "action": action})
        assert reply.status_code == 200, reply.text
        check_stored_table(client, table["id"])


def test_a_failed_next_is_not_taken_as_ready(sqlite_url: str) -> None:
    """A `next` whose write failed leaves the seat not ready, so its retry is stored (it used to answer ok
    without storing anything)."""
    client, db = faulty_client(sqlite_url)
    with client:
        table = new_table(client, bots=[2, 3], hands=2, seed=None)
        tokens = [join(client, table["id"], seat) for seat in (0, 1)]
        done = [threading.Thread(target=play_through_hand, args=(client, table["id"], t, GreedyBot(s)))
                for s, t in enumerate(tokens)]
        for thread in done:
            thread.start()
        for thread in done:
            thread.join(120)
        state = client.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[0])).json()
        assert state["status"] == "hand_over"
        db.fail_writes.add(db.writes + 1)
        reply = client.post(f"/api/tables/{table['id']}/next", headers=auth(tokens[0]))
        assert reply.status_code == 503
        assert client.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[0])).json()["ready"] == []
        assert client.post(f"/api/tables/{table['id']}/next", headers=auth(tokens[0])).status_code == 200
        (stored,) = storage_call(client, "load_tables", table["id"])
        assert stored.runtime["ready"] == [0]


def play_through_hand(client: TestClient, table_id: str, token: str, bot: Any) -> None:
    headers = auth(token)
    version = -1
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = client.get(f"/api/tables/{table_id}/state", params={"after": version, "wait": 0.5},
                           headers=headers).json()
        version = state["version"]
        if state["status"] != "playing":
            return
        if state["decision"] is None:
            continue
        action = wire_action(bot, state["observation"])
        client.post(f"/api/tables/{table_id}/action", headers=headers,
                    json={"decision": state["decision"], "action": action})


def test_a_join_whose_answer_was_lost_can_be_made_again(db_url: str) -> None:
    """The seat's row was stored but the token never reached the client: joining the seat again works (it
    used to hit the stored row's key, refused for ever), and only the new token opens it, after a restart too."""
    client, db = faulty_client(db_url)
    with client:
        table = new_table(client, bots=[], seed=None)
        db.lose_ack_of = "hupai_seats"  # the join's write, whatever else the table writes meanwhile
        reply = client.post(f"/api/tables/{table['id']}/join", json={"seat": 0})
        assert reply.status_code == 503 and reply.json()["code"] == "unavailable"
        token = join(client, table["id"], 0)
        assert client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).status_code == 200
    client, db = faulty_client(db_url)
    with client:
        assert client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).status_code == 200
        (stored,) = storage_call(client, "load_tables", table["id"])
        assert list(stored.token_hashes) == [0]
