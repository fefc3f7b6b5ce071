"""A cluster owner paused (SIGSTOP) long enough for PostgreSQL to end its session, while another process takes its
table over and plays on, then resumed (SIGCONT) (issue 29 item 8): its first answers about the table come from the
table's new owner, never from the memory it kept while paused, so no client sees the table's version go back."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from serve_helpers import ONE_ADDRESS, free_port, server

psycopg = pytest.importorskip("psycopg")
httpx = pytest.importorskip("httpx")

FLAGS = (*ONE_ADDRESS, "--cluster")


def _stored_version(db: str, table_id: str) -> int:
    with psycopg.connect(db) as conn:
        row = conn.execute("SELECT version FROM hupai_tables WHERE id = %s", (table_id,)).fetchone()
    assert row is not None
    return int(row[0])


def test_a_resumed_owner_never_answers_from_what_it_lost(cluster_db: str, tmp_path: Path) -> None:
    port_a, port_b = free_port(), free_port()
    with server(cluster_db, port_a, tmp_path / "a.log", FLAGS) as process_a, \
            server(cluster_db, port_b, tmp_path / "b.log", FLAGS):
        a = httpx.Client(base_url=f"http://127.0.0.1:{port_a}", timeout=60)
        table = a.post("/api/tables", json={"rules": "guangdong", "bots": [0, 1, 2, 3], "think_ms": 50,
                                            "hands": 64}).json()
        deadline = time.monotonic() + 60
        while a.get(f"/api/tables/{table['id']}/watch").json()["version"] < 5:
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.1)
        os.kill(process_a.pid, signal.SIGSTOP)
        try:
            paused_at = _stored_version(cluster_db, table["id"])
            deadline = time.monotonic() + 120  # PostgreSQL ends the paused session after 15 s; B's scan takes over
            while _stored_version(cluster_db, table["id"]) < paused_at + 5:
                assert time.monotonic() < deadline, "the table was not taken over while its owner was paused"
                time.sleep(0.5)
            before_resume = _stored_version(cluster_db, table["id"])
        finally:
            os.kill(process_a.pid, signal.SIGCONT)
        replies = [a.get(f"/api/tables/{table['id']}/watch").json() for _ in range(6)]
        seen = [reply["version"] for reply in replies if reply.get("type") == "state"]
        # (an answer may be "try again" while the table's whereabouts are looked up: never an old state)
        assert all(reply.get("code") in (None, "unavailable", "moved") for reply in replies), replies
        assert all(version >= before_resume for version in seen), (before_resume, seen)
        assert seen == sorted(seen), seen  # and it never goes back
        deadline = time.monotonic() + 30
        while a.get(f"/api/tables/{table['id']}/watch").json().get("type") != "state":
            assert time.monotonic() < deadline, "the resumed process never answered with the table's state"
            time.sleep(0.2)
        a.close()
