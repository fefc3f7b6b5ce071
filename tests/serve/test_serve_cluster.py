"""Two ``hupai serve --cluster`` processes over one throwaway PostgreSQL (issue 24 item 4): a table created on
A is joined and played through B (HTTP and WebSocket seats, forwarded to A), A is killed with SIGKILL, and the
table goes on through B (its clients reconnect or ask again, its bots' seats play on) with nothing lost: every
acknowledged action is stored once, at its place, and the stored table is whole. A table nobody asks for is
taken over by the survivor's scan. No timing asserts: generous bounds only, for a loaded machine."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hupai.bots import RandomBot
from hupai.errors import HupaiError
from hupai.observation import Observation
from serve_helpers import ONE_ADDRESS, free_port, open_client, server

psycopg = pytest.importorskip("psycopg")
httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")

FLAGS = (*ONE_ADDRESS, "--cluster")
DEADLINE = 180.0  # seconds a whole hand may take on a loaded machine


def _action(state: dict[str, Any], bot: RandomBot) -> dict[str, Any]:
    observation = Observation.from_json(state["observation"])
    action: dict[str, Any] = bot.act(observation).to_dict(len(observation.counts))
    return action


class Seat:
    """A client seat that reaches the table only through ``base`` (process B) and survives the owner's death:
    an ``unavailable`` reply is asked again, a WebSocket told ``moved`` (or cut) connects again."""

    def __init__(self, base: str, table: str, token: str, seed: int) -> None:
        self.base, self.table, self.token = base, table, token
        self.bot = RandomBot(seed)
        self.acked: list[tuple[int, int, dict[str, Any]]] = []
        self.moved = 0  # how often the WebSocket was told to connect again
        self.retried = 0  # how many HTTP requests were answered ``unavailable`` (or not at all)
        self.final: dict[str, Any] | None = None

    async def play_ws(self) -> None:
        url = self.base.replace("http", "ws") + "/api/ws"
        deadline = time.monotonic() + DEADLINE
        while self.final is None:
            assert time.monotonic() < deadline, "the WebSocket seat did not see the match end"
            try:
                await self._ws_session(url)
            except (OSError, websockets.exceptions.WebSocketException):
                self.moved += 1
                await asyncio.sleep(0.2)

    async def _ws_session(self, url: str) -> None:
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "table": self.table, "token": self.token}))
            pending: tuple[int, int, dict[str, Any]] | None = None
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "error":
                    assert message["code"] in ("moved", "unavailable"), message
                    self.moved += 1
                    return  # connect again; an action sent but not acknowledged is asked again if still due
                if message["type"] == "ack":
                    assert pending is not None and message["hand"] == pending[0], message
                    self.acked.append((message["hand"], message["seq"], pending[2]))
                    pending = None
                elif message["type"] == "state":
                    if message["status"] == "match_over":
                        self.final = message
                        return
                    if message["status"] != "playing" or message["decision"] is None or pending is not None:
                        continue
                    action = _action(message, self.bot)
                    pending = (message["hand"], message["decision"], {**action, "seat": message["seat"]})
                    await ws.send(json.dumps({"type": "action", "decision": message["decision"], "action": action}))

    async def play_http(self, client: Any) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        version = -1
        deadline = time.monotonic() + DEADLINE
        while self.final is None:
            assert time.monotonic() < deadline, "the HTTP seat did not see the match end"
            try:
                reply = await client.get(f"{self.base}/api/tables/{self.table}/state",
                                         params={"after": version, "wait": 5}, headers=headers)
                if reply.status_code == 503:
                    self.retried += 1
                    continue
                assert reply.status_code == 200, reply.text
                state = reply.json()
                version = state["version"]
                if state["status"] == "match_over":
                    self.final = state
                    return
                if state["status"] != "playing" or state["decision"] is None:
                    continue
                action = _action(state, self.bot)
                reply = await client.post(f"{self.base}/api/tables/{self.table}/action", headers=headers,
                                          json={"decision": state["decision"], "action": action})
            except httpx.HTTPError:
                self.retried += 1
                await asyncio.sleep(0.2)
                continue
            if reply.status_code == 503:  # not acknowledged: the next state says whether it was stored
                self.retried += 1
                continue
            assert reply.status_code == 200, reply.text
            self.acked.append((reply.json()["hand"], reply.json()["seq"], {**action, "seat": state["seat"]}))


def _check_stored(db: str, table_id: str, seats: list[Seat]) -> None:
    """Every acknowledged action is stored at the seq its ack named, once; the stored table is whole."""
    from test_serve_storage import check_stored_table

    with open_client(db, drive=False) as local:
        check_stored_table(local, table_id)
        storage = local.app.state.host.storage
        rows = local.portal.call(storage.actions, table_id, 0)
        stored = local.app.state.host.tables[table_id]
        assert stored.status == "match_over"
    acked = [item for seat in seats for item in seat.acked]
    assert len({(hand, seq) for hand, seq, _ in acked}) == len(acked), "an action was acknowledged twice"
    for hand, seq, action in acked:
        assert hand == 0 and seq < len(rows) and rows[seq][2] == action, (seq, action)


def test_create_on_a_play_on_b_kill_a_play_on(cluster_db: str, tmp_path: Path) -> None:
    port_a, port_b = free_port(), free_port()
    base_a, base_b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    with server(cluster_db, port_a, tmp_path / "a.log", FLAGS) as process_a, \
            server(cluster_db, port_b, tmp_path / "b.log", FLAGS):
        created = httpx.post(f"{base_a}/api/tables", json={"rules": "guangdong", "bots": [2, 3], "think_ms": 0,
                                                          "claim_seconds": 0, "turn_seconds": 0, "hands": 1})
        assert created.status_code == 201, created.text
        table = created.json()["id"]
        # Joined through B: forwarded to A, which holds the table.
        tokens = []
        for seat in (0, 1):
            joined = httpx.post(f"{base_b}/api/tables/{table}/join", json={"seat": seat})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
        assert httpx.get(f"{base_b}/api/tables/{table}").json()["seats"][0]["taken"]
        assert [t["id"] for t in httpx.get(f"{base_b}/api/tables").json()["tables"]] == [table]  # B's lobby: A's too
        watched = httpx.get(f"{base_b}/api/tables/{table}/watch")  # a spectator's poll, forwarded to A
        assert watched.status_code == 200 and watched.json()["table"] == table, watched.text

        async def spectate() -> dict[str, Any]:  # a spectator's WebSocket, relayed to A
            async with websockets.connect(base_b.replace("http", "ws") + "/api/ws") as ws:
                await ws.send(json.dumps({"type": "hello", "table": table, "watch": True}))
                seen: dict[str, Any] = json.loads(await ws.recv())
                return seen

        spectated = asyncio.run(spectate())
        assert spectated["type"] == "state" and spectated["table"] == table, spectated
        ws_seat, http_seat = Seat(base_b, table, tokens[0], 1), Seat(base_b, table, tokens[1], 2)

        async def play() -> int:
            async with httpx.AsyncClient(timeout=30) as client:
                tasks = [asyncio.ensure_future(ws_seat.play_ws()), asyncio.ensure_future(http_seat.play_http(client))]
                while min(len(ws_seat.acked), len(http_seat.acked)) < 2 and not any(t.done() for t in tasks):
                    await asyncio.sleep(0.05)
                before = len(ws_seat.acked) + len(http_seat.acked)
                process_a.send_signal(signal.SIGKILL)  # the owner dies mid-hand
                process_a.wait()
                await asyncio.gather(*tasks)
                return before

        acked_before = asyncio.run(play())
        assert len(ws_seat.acked) + len(http_seat.acked) > acked_before >= 4  # played before and after the kill
        assert ws_seat.moved >= 1  # its relay to A was cut: it connected again (to B)
        a_log = (tmp_path / "a.log").read_text()
        assert f'"POST /api/tables/{table}/action HTTP/1.1" 200' in a_log  # B forwarded to A while A lived
        assert ws_seat.final is not None and http_seat.final is not None
        assert ws_seat.final["scores"] == http_seat.final["scores"]
        b_log = (tmp_path / "b.log").read_text()
        assert f"table {table}: taken over by this process" in b_log, b_log[-3000:]
        assert "Traceback" not in b_log, b_log[-3000:]
    _check_stored(cluster_db, table, [ws_seat, http_seat])


def _stored_version(db: str, table_id: str) -> tuple[int, str]:
    with psycopg.connect(db) as conn:
        version, runtime = conn.execute("SELECT version, runtime FROM hupai_tables WHERE id = %s",
                                        (table_id,)).fetchone()
    return int(version), json.loads(runtime)["status"]


def _bot_table(db: str, port: int, **config: Any) -> str:
    """A table of four bots created on the process at ``port``, once its bots have stored a few actions."""
    created = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                         json={"rules": "guangdong", "bots": [0, 1, 2, 3], **config})
    assert created.status_code == 201, created.text
    table: str = created.json()["id"]
    deadline = time.monotonic() + 60
    while _stored_version(db, table)[0] < 3:
        assert time.monotonic() < deadline, "the bots did not start"
        time.sleep(0.1)
    return table


def test_an_orphaned_bot_table_goes_on_without_a_request(cluster_db: str, tmp_path: Path) -> None:
    """Nobody asks for the table after its owner dies: the survivor's scan takes it over and its bots play on."""
    port_a, port_b = free_port(), free_port()
    with server(cluster_db, port_a, tmp_path / "a.log", FLAGS) as process_a, \
            server(cluster_db, port_b, tmp_path / "b.log", FLAGS):
        table = _bot_table(cluster_db, port_a, think_ms=100, hands=2)
        process_a.send_signal(signal.SIGKILL)
        process_a.wait()
        killed_at, _ = _stored_version(cluster_db, table)
        deadline = time.monotonic() + DEADLINE
        while True:
            version, status = _stored_version(cluster_db, table)
            if version >= killed_at + 10 or status == "match_over":
                break
            assert time.monotonic() < deadline, f"the orphaned table stayed at version {version}"
            time.sleep(0.2)
        assert f"table {table}: taken over by this process" in (tmp_path / "b.log").read_text()


def test_a_cluster_needs_postgresql(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "hupai.cli", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                           "--cluster", "--port", str(free_port())], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--cluster" in done.stderr and "PostgreSQL" in done.stderr and "Traceback" not in done.stderr


def test_a_process_that_loses_its_lock_connection_drops_its_tables(cluster_db: str, tmp_path: Path) -> None:
    """A's lock connection is cut (its locks go with it) while A lives on: A drops its table, and B (or A on its
    new session) takes it over (a write of A's meanwhile fails the version check: never two writers), and the stored
    table stays whole."""
    port_a, port_b = free_port(), free_port()
    with server(cluster_db, port_a, tmp_path / "a.log", FLAGS) as process_a, \
            server(cluster_db, port_b, tmp_path / "b.log", FLAGS):
        table = _bot_table(cluster_db, port_a, think_ms=20, hands=1)
        with psycopg.connect(cluster_db, autocommit=True) as conn:
            (cut,) = conn.execute("SELECT pg_terminate_backend(backend_pid::int) FROM hupai_processes "
                                  "WHERE address = %s", (f"http://127.0.0.1:{port_a}",)).fetchone()
        assert cut
        deadline = time.monotonic() + DEADLINE
        while _stored_version(cluster_db, table)[1] != "match_over":
            assert time.monotonic() < deadline, "the table did not finish"
            time.sleep(0.2)
        # Whichever process scans first takes the orphan: B, or A itself on its new session (A now notices the
        # lost connection at once, so it often wins that race). The table can finish before A has written its
        # lines (its log is written by its own loop): they are waited for, not read once.
        taken = f"table {table}: taken over by this process"

        def logged() -> bool:
            a_log = (tmp_path / "a.log").read_text()
            return ("lock connection failed" in a_log and "dropping 1 table(s)" in a_log
                    and (taken in (tmp_path / "b.log").read_text()
                         or taken in a_log.split("dropping 1 table(s)", 1)[1]))

        while not logged():
            assert time.monotonic() < deadline, (tmp_path / "a.log").read_text()[-3000:]
            time.sleep(0.2)
        assert process_a.poll() is None  # A lives on, with a new session (it serves again what it takes)
    with open_client(cluster_db, drive=False) as local:
        from test_serve_storage import check_stored_table

        check_stored_table(local, table)


def test_only_a_peer_with_the_clusters_secret_names_the_client_address() -> None:
    """A forwarded request's client address is taken from its header only with the cluster's secret: anyone
    else's header is ignored (it could dodge the limits per address), and the wrong secret is not a peer."""
    from hupai.serve.cluster import CLIENT_HEADER, PEER_HEADER, Cluster
    from starlette.requests import Request

    cluster = Cluster("postgresql://unused", "http://127.0.0.1:1")
    cluster.secret = "s3cret"

    def request(secret: str | None) -> Request:
        headers = [(CLIENT_HEADER.encode(), b"203.0.113.9")]
        if secret is not None:
            headers.append((PEER_HEADER.encode(), secret.encode()))
        return Request({"type": "http", "method": "GET", "path": "/", "headers": headers,
                        "client": ("127.0.0.1", 5000)})

    for secret in (None, "", "wrong", "s3cret "):
        forged = request(secret)
        assert not cluster.peer(forged) and forged.client is not None and forged.client.host == "127.0.0.1"
    forwarded = request("s3cret")
    assert cluster.peer(forwarded) and forwarded.client is not None and forwarded.client.host == "203.0.113.9"
    with pytest.raises(HupaiError, match="advertises"):
        Cluster("postgresql://unused", "127.0.0.1:8000")


def test_a_stopped_process_hands_its_tables_over(cluster_db: str, tmp_path: Path) -> None:
    """A is stopped (SIGTERM) under a WebSocket relayed by B: the client is told ``moved`` once, the socket
    closes with 1012, and its hello again (to B) finds the table, now B's."""
    port_a, port_b = free_port(), free_port()
    with server(cluster_db, port_a, tmp_path / "a.log", FLAGS) as process_a, \
            server(cluster_db, port_b, tmp_path / "b.log", FLAGS):
        created = httpx.post(f"http://127.0.0.1:{port_a}/api/tables",
                             json={"rules": "guangdong", "bots": [1, 2, 3], "hands": 1, "turn_seconds": 0})
        assert created.status_code == 201, created.text
        table = created.json()["id"]
        token = httpx.post(f"http://127.0.0.1:{port_b}/api/tables/{table}/join", json={}).json()["token"]
        hello = json.dumps({"type": "hello", "table": table, "token": token})

        async def follow() -> tuple[list[dict[str, Any]], int | None, dict[str, Any]]:
            url = f"ws://127.0.0.1:{port_b}/api/ws"
            async with websockets.connect(url) as ws:
                await ws.send(hello)
                assert json.loads(await ws.recv())["type"] == "state"
                process_a.send_signal(signal.SIGTERM)
                told = []
                try:
                    async for raw in ws:
                        told.append(json.loads(raw))
                except websockets.exceptions.ConnectionClosed:
                    pass
                code = ws.close_code
            async with websockets.connect(url) as ws:
                await ws.send(hello)
                return told, code, json.loads(await ws.recv())

        told, code, again = asyncio.run(follow())
        assert [m for m in told if m["type"] == "error"] == [told[-1]] and told[-1]["code"] == "moved", told
        assert code == 1012
        assert again["type"] == "state" and again["table"] == table
        assert f"table {table}: taken over by this process" in (tmp_path / "b.log").read_text()
