"""A crash: the server runs as its own process (``hupai serve``, uvicorn), a seat plays over HTTP while a
table of bots plays on, the process is killed with SIGKILL mid-game (an action in flight), restarted on the
same database, and every table resumes: nothing acknowledged is lost, nothing is stored twice, every finished
hand replays."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
from hupai.bots import GreedyBot
from serve_helpers import auth, free_port, join, new_table, open_client, play_http, server
from test_serve_storage import check_stored_table


def test_kill_9_mid_game_loses_and_duplicates_nothing(tmp_path: Path, db_url: str) -> None:
    db = db_url
    port = free_port()
    log = tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    with server(db, port, log) as process, httpx.Client(base_url=base, timeout=10) as client:
        bots_only = new_table(client, bots=[0, 1, 2, 3], hands=64, seed=41, bot="random")  # writes all along
        table = new_table(client, bots=[1, 2, 3], seed=42)
        token = join(client, table["id"])
        acked = play_http(client, table["id"], token, GreedyBot(1), actions=8)
        state = client.get(f"/api/tables/{table['id']}/state", headers=auth(token), params={"wait": 2}).json()
        # One more action sent without waiting for its ack; the process dies at once.
        action: dict[str, Any] | None = None
        if state["decision"] is not None and state["status"] == "playing":
            legal = state["observation"]["legal_actions"]
            action = legal[0]
            try:
                client.post(f"/api/tables/{table['id']}/action", headers=auth(token),
                            json={"decision": state["decision"], "action": action}, timeout=0.002)
            except httpx.TimeoutException:
                pass
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    seen_hands = None
    with server(db, port, log), httpx.Client(base_url=base, timeout=10) as client:
        resumed = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
        assert resumed["seq"] >= state["seq"]
        seen_hands = client.get(f"/api/tables/{bots_only['id']}").json()["hand"]
        more = play_http(client, table["id"], token, GreedyBot(2))
        assert more or resumed["status"] != "playing"
        time.sleep(0.3)  # the bots' table plays on after the restart
        assert client.get(f"/api/tables/{bots_only['id']}").json()["hand"] >= seen_hands
    with open_client(db, drive=False) as local:  # the stored state, read in-process once the server is gone
        for table_id in (table["id"], bots_only["id"]):
            check_stored_table(local, table_id)
        rows = local.portal.call(local.app.state.host.storage.actions, table["id"], 0)
        for _, seq, acked_action in acked:  # every acknowledged action is there, at its place
            assert rows[seq][2] == acked_action
        if action is not None:  # the one in flight: stored once or not at all
            in_flight = [r for r in rows if r[0] == state["seq"]]
            assert len(in_flight) <= 1
