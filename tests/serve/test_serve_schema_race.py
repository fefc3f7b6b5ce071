"""Schema creation when several processes start at once (issue 29 item 2): ``hupai serve --cluster`` processes
started together (systemd, compose, a deploy script) on an empty database, or on an older one that lacks some
of the tables, all come up: one creates the schema under a lock, the others wait and go on. Never a
``UniqueViolation`` from the catalog, never one reported as ``StorageConflict``.

The race is made tight in one process (several sessions released together by a barrier, many rounds), then
shown end to end with real ``hupai serve --cluster`` processes started at the same moment."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hupai.serve.cluster import Cluster
from hupai.serve.storage import PostgresDatabase, SQLiteDatabase, Storage
from serve_helpers import ONE_ADDRESS, free_port

psycopg = pytest.importorskip("psycopg")
httpx = pytest.importorskip("httpx")

SESSIONS = 6
ROUNDS = 10
#: What a database made by a version before the cluster's tables existed holds.
OLDER = ("CREATE TABLE hupai_tables (id TEXT PRIMARY KEY, created BIGINT NOT NULL, config TEXT NOT NULL, "
         "match TEXT NOT NULL, runtime TEXT NOT NULL, snapshot TEXT NOT NULL, version BIGINT NOT NULL)",)


@pytest.fixture
def fresh_db(cluster_db: str) -> Iterator[str]:
    """A maker of fresh empty places for the schema: a PostgreSQL schema each (as good as a new database for
    the race, which is on the catalog's names per namespace, and much quicker to make), named in the URL's
    ``search_path``."""
    with psycopg.connect(cluster_db, autocommit=True) as conn:
        def places() -> Iterator[str]:
            while True:
                name = f"s_{secrets.token_hex(4)}"
                conn.execute(f"CREATE SCHEMA {name}")
                yield f"{cluster_db}?options=-csearch_path%3D{name}"

        yield places()


async def _start_together(url: str) -> None:
    """SESSIONS processes' start-up schema work (the storage's, then the cluster's lock connection's), each on
    connections of its own, released at one moment."""
    barrier = asyncio.Barrier(SESSIONS)
    databases = [PostgresDatabase(url) for _ in range(SESSIONS)]
    clusters = [Cluster(url, "http://127.0.0.1:9") for _ in range(SESSIONS)]

    async def one(database: PostgresDatabase, cluster: Cluster) -> None:
        await database.fetch("SELECT 1")  # connected before the barrier: the schema statements race, not the logins
        await barrier.wait()
        await Storage(database).init()
        await cluster._connect()

    try:
        await asyncio.gather(*(one(d, c) for d, c in zip(databases, clusters, strict=True)))
    finally:
        for database, cluster in zip(databases, clusters, strict=True):
            await cluster.stop()
            await database.close()


def _tables(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        return {row[0] for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = "
                                               "current_schema() AND tablename LIKE 'hupai_%'")}


ALL_TABLES = {"hupai_tables", "hupai_seats", "hupai_actions", "hupai_hands", "hupai_processes", "hupai_cluster"}


def test_sessions_creating_the_schema_together_on_postgres(fresh_db: Iterator[str]) -> None:
    for round_number in range(ROUNDS):
        url = next(fresh_db)
        if round_number % 3 == 2:  # an older database: some tables there, the rest to add
            with psycopg.connect(url, autocommit=True) as conn:
                for sql in OLDER:
                    conn.execute(sql)
        asyncio.run(_start_together(url))
        assert _tables(url) == ALL_TABLES


def test_sessions_creating_the_schema_together_on_sqlite(tmp_path: Path) -> None:
    async def start_together(path: str) -> None:
        barrier = asyncio.Barrier(SESSIONS)
        databases = [SQLiteDatabase(path) for _ in range(SESSIONS)]

        async def one(database: SQLiteDatabase) -> None:
            await barrier.wait()
            await Storage(database).init()

        try:
            await asyncio.gather(*(one(d) for d in databases))
        finally:
            for database in databases:
                await database.close()

    for round_number in range(ROUNDS):
        path = str(tmp_path / f"round{round_number}.db")
        asyncio.run(start_together(path))
        import sqlite3

        with sqlite3.connect(path) as conn:
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert names == {"hupai_tables", "hupai_seats", "hupai_actions", "hupai_hands"}


PROCESSES = 3
PROCESS_ROUNDS = 1


def test_cluster_processes_started_at_once_all_come_up(fresh_db: Iterator[str], tmp_path: Path) -> None:
    """Real ``hupai serve --cluster`` processes started at the same moment on an empty database: every one serves,
    none logs a traceback."""
    for round_number in range(PROCESS_ROUNDS):
        url = next(fresh_db)
        ports = [free_port() for _ in range(PROCESSES)]
        logs = [tmp_path / f"round{round_number}-{k}.log" for k in range(PROCESSES)]
        processes = []
        try:
            for port, log in zip(ports, logs, strict=True):
                with open(log, "wb") as out:
                    processes.append(subprocess.Popen(
                        [sys.executable, "-m", "hupai.cli", "serve", "--db", url, "--port", str(port), "--cluster",
                         *ONE_ADDRESS], stdout=out, stderr=subprocess.STDOUT))
            deadline = time.monotonic() + 180  # (three processes importing at once on a loaded machine)
            waiting = set(range(PROCESSES))
            while waiting:
                for k in sorted(waiting):
                    assert processes[k].poll() is None, f"process {k} exited: {logs[k].read_text()[-3000:]}"
                    try:
                        httpx.get(f"http://127.0.0.1:{ports[k]}/api/rules", timeout=1)
                        waiting.discard(k)
                    except httpx.HTTPError:
                        pass
                assert time.monotonic() < deadline, f"processes {sorted(waiting)} did not come up"
                time.sleep(0.1)
        finally:
            for process in processes:
                process.kill()
                process.wait()
        for log in logs:
            text = log.read_text()
            assert "Traceback" not in text and "StorageConflict" not in text, text[-3000:]
        assert _tables(url) == ALL_TABLES
