"""Chaos: a real ``hupai serve`` process killed with SIGKILL at random moments while every rule system is played,
by scripted human seats (clients over HTTP and over the WebSocket, each reconnecting as a person's browser
would) and by the server's bots, with a read-only outage of the database in the middle (SQLite: another
process holds the write lock past the server's busy time-out; PostgreSQL: the database is switched to
``default_transaction_read_only`` and its sessions cut). After each restart nothing acknowledged is lost or
stored twice, and at the end every table has finished its match.

The short version (a few kills, bounded to about a minute per database) runs with the suite; ``make chaos``
runs a longer one: ``HUPAI_CHAOS_KILLS`` kills (default 3), ``HUPAI_CHAOS_SEED`` the random moments.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from hupai.bots import GreedyBot
from serve_helpers import free_port, open_client, server, wire_action
from test_serve_storage import check_stored_table, storage_call

KILLS = int(os.environ.get("HUPAI_CHAOS_KILLS", "3"))
SEED = int(os.environ.get("HUPAI_CHAOS_SEED", "20"))
PLAYERS = {"guangdong": 4, "yunxiao": 4, "kawuxing": 3, "waihuzi": 3}
# Wai Huzi plays one hand a match here until the match is stored whole (its session 神, fixed after hand 1, is
# rebuilt from the creation options on restart: the `roundtrip` branch's Match.to_dict/from_dict).
HANDS = {"guangdong": 2, "yunxiao": 2, "kawuxing": 2, "waihuzi": 1}


class Seat(threading.Thread):
    """A human seat played by a bot through a client that survives the server's deaths: every refusal or
    dropped connection is answered by asking for the state again (over HTTP) or reconnecting (WebSocket)."""

    def __init__(self, base: str, table_id: str, token: str, seed: int, websocket: bool, deadline: float) -> None:
        super().__init__(daemon=True)
        self.base, self.table_id, self.token, self.websocket = base, table_id, token, websocket
        self.bot = GreedyBot(seed)
        self.deadline = deadline
        self.acked: list[tuple[int, int, dict[str, Any]]] = []
        self.finished = False
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.finished and time.monotonic() < self.deadline:
                try:
                    self.play_ws() if self.websocket else self.play_http()
                except (httpx.HTTPError, OSError, ValueError, TimeoutError):
                    time.sleep(0.2)  # the server is down or restarting: try again
                except Exception as error:  # noqa: BLE001  (websockets' own errors: a closed connection)
                    if type(error).__module__.split(".")[0] != "websockets":
                        raise
                    time.sleep(0.2)
        except BaseException as error:  # noqa: BLE001  (reported by the test)
            self.failure = error

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        action: dict[str, Any] = wire_action(self.bot, state["observation"])
        return action

    def play_http(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        version = -1
        with httpx.Client(base_url=self.base, timeout=5) as client:
            while time.monotonic() < self.deadline:
                reply = client.get(f"/api/tables/{self.table_id}/state", params={"after": version, "wait": 1},
                                   headers=headers)
                if reply.status_code != 200:
                    time.sleep(0.1)
                    version = -1
                    continue
                state = reply.json()
                version = state["version"]
                if state["status"] == "match_over":
                    self.finished = True
                    return
                if state["status"] == "hand_over":
                    if state["seat"] not in state["ready"]:
                        client.post(f"/api/tables/{self.table_id}/next", headers=headers)
                    continue
                if state["decision"] is None:
                    continue
                action = self.choose(state)
                reply = client.post(f"/api/tables/{self.table_id}/action", headers=headers,
                                    json={"decision": state["decision"], "action": action})
                if reply.status_code == 200:
                    self.acked.append((reply.json()["hand"], reply.json()["seq"], {**action, "seat": state["seat"]}))
                else:
                    version = -1

    def play_ws(self) -> None:
        from websockets.sync.client import connect

        url = self.base.replace("http", "ws") + "/api/ws"
        with connect(url, open_timeout=5, close_timeout=1) as ws:
            ws.send(json.dumps({"type": "hello", "table": self.table_id, "token": self.token}))
            pending: dict[str, Any] | None = None
            answered: tuple[int, int] | None = None
            while time.monotonic() < self.deadline:
                message = json.loads(ws.recv(timeout=5))
                if message["type"] == "ack":
                    assert pending is not None
                    self.acked.append((message["hand"], message["seq"], pending))
                    pending = None
                elif message["type"] == "error":
                    if message["code"] == "broken":
                        raise AssertionError(f"table {self.table_id} broken after a restart")
                    pending, answered = None, None  # refused (a storage outage): answer the state again
                elif message["type"] == "state":
                    if message["status"] == "match_over":
                        self.finished = True
                        return
                    if message["status"] == "hand_over":
                        if message["seat"] not in message["ready"]:
                            ws.send(json.dumps({"type": "next"}))
                        continue
                    key = (message["hand"], message["decision"])
                    if message["decision"] is None or key == answered or pending is not None:
                        continue
                    action = self.choose(message)
                    pending, answered = {**action, "seat": message["seat"]}, key
                    ws.send(json.dumps({"type": "action", "decision": message["decision"], "action": action}))


def read_only_outage(db: str, seconds: float) -> None:
    """Make the database refuse every write for ``seconds``."""
    if db.startswith("sqlite:///"):
        # Another writer holds the lock past the server's busy time-out (5 s): its writes fail as "locked".
        conn = sqlite3.connect(db[len("sqlite:///"):], isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        time.sleep(seconds)
        conn.execute("ROLLBACK")
        conn.close()
        return
    import psycopg

    def switch(on: bool) -> None:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("SET default_transaction_read_only = off")  # this session itself may have started read-only
            conn.execute(f"ALTER DATABASE postgres SET default_transaction_read_only = {'on' if on else 'off'}")
            # Sessions take the setting when they start: cut the server's, it reconnects.
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = 'postgres' AND pid <> pg_backend_pid() AND backend_type = 'client backend'")
    switch(True)
    try:
        time.sleep(seconds)
    finally:
        switch(False)


def test_kill_9_at_random_moments_and_a_read_only_outage(tmp_path: Path, db_url: str) -> None:
    rng = random.Random(SEED)
    port = free_port()
    log = tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    seats: list[Seat] = []
    tables: list[str] = []
    deadline = time.monotonic() + 60 + 30 * KILLS
    with server(db_url, port, log) as process, httpx.Client(base_url=base, timeout=10) as client:
        for index, (rules, n) in enumerate(PLAYERS.items()):
            common = {"rules": rules, "think_ms": 30, "claim_seconds": 0, "hands": HANDS[rules]}
            bots = client.post("/api/tables", json={**common, "bots": list(range(n)), "seed": 100 + index})
            human = client.post("/api/tables", json={**common, "bots": list(range(1, n)), "seed": 200 + index})
            assert bots.status_code == human.status_code == 201, (bots.text, human.text)
            tables += [bots.json()["id"], human.json()["id"]]
            token = client.post(f"/api/tables/{human.json()['id']}/join", json={"seat": 0}).json()["token"]
            seats.append(Seat(base, human.json()["id"], token, index, websocket=index % 2 == 1, deadline=deadline))
        for seat in seats:
            seat.start()
        os.kill(process.pid, signal.SIGKILL)  # the first kill: right after the tables were made
        process.wait()
    for kill in range(KILLS):
        with server(db_url, port, log) as process:
            if kill == KILLS // 2:
                read_only_outage(db_url, 6.0 if db_url.startswith("sqlite") else 1.5)
            time.sleep(rng.uniform(0.3, 2.0))
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
    with server(db_url, port, log), httpx.Client(base_url=base, timeout=10) as client:
        for seat in seats:
            seat.join(max(0.0, deadline - time.monotonic()))
            assert seat.failure is None, seat.failure
            assert seat.finished, f"table {seat.table_id} did not finish"
        while any(client.get(f"/api/tables/{t}").json()["status"] != "match_over" for t in tables):
            assert time.monotonic() < deadline, "a table of bots did not finish"
            time.sleep(0.2)
    text = log.read_text()
    assert "Application startup failed" not in text
    # (The database may hold other tests' tables, broken on purpose: only this test's must all restore.)
    assert not [line for line in text.splitlines() if "could not be restored" in line
                and any(table_id in line for table_id in tables)]
    check_stored(db_url, tables, seats)


def check_stored(db_url: str, tables: list[str], seats: list[Seat]) -> None:
    """Every table stored whole, every match's hands stored, every acknowledged action stored once at its place."""
    with open_client(db_url, drive=False) as local:
        for table_id in tables:
            check_stored_table(local, table_id)
        for seat in seats:
            assert len({(hand, seq) for hand, seq, _ in seat.acked}) == len(seat.acked), "acknowledged twice"
            hands = {hand: storage_call(local, "actions", seat.table_id, hand) for hand, _, _ in seat.acked}
            for hand, seq, action in seat.acked:  # every acknowledged action, stored at the seq its ack named
                assert hands[hand][seq][2] == action
            rules = local.app.state.host.tables[seat.table_id].config.rules
            assert len(storage_call(local, "hands", seat.table_id)) == HANDS[rules]

