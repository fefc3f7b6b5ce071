"""Load on the reference server: N tables, each with one client seat over a WebSocket on loopback (a random
player in this process) and three server-side bots, all playing at once; bounded in time and in actions.

    .venv/bin/python bench/serve_load.py --tables 100 --seconds 20
    .venv/bin/python bench/serve_load.py --tables 1000 --seconds 30 --db postgresql://...

    .venv/bin/python bench/serve_load.py --per-action        # only the cost of one action's write, in-process
    .venv/bin/python bench/serve_load.py --db pg --processes 2  # two `hupai serve --cluster` on one PostgreSQL

``--db pg`` starts a throwaway PostgreSQL (tests/serve's fixture: initdb, fsync off); a ``postgresql://`` URL
gets a fresh database of its own on that server, dropped afterwards. ``--processes N`` (PostgreSQL only) runs N
``hupai serve --cluster`` processes over it: table i is created on process i mod N and its client connects to
that process too, or with ``--cross`` to the next one (its every message relayed to the owner); ``--cluster``
runs a single process in cluster mode (to compare one process with two on the same footing).

The server runs as its own process (``hupai serve``, uvicorn) on a fresh SQLite file unless ``--db`` names
another database. Reported: the clients' actions acknowledged per second and their latency (send to ack:
p50, p99), every action stored per second (the bots' included), and the check that nothing was lost or
duplicated: each acknowledged action is in the stored log exactly once, at the seq its ack named, and each
table's log has no gap or repeat and matches its snapshot.

First (and alone with ``--per-action``), in this process: the bytes a table writes and the CPU its commit takes
(the engine's apply, the write's JSON, the table's bookkeeping; the database answers at once) per action, early
in a hand (actions 0-31) and late (96-127), each window holding one snapshot: the two should be about equal.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

TESTS = Path(__file__).resolve().parent.parent / "tests" / "serve"

try:  # the client is a measuring tool: the cheapest JSON at hand (orjson comes with the server extra)
    import orjson

    _loads: Any = orjson.loads

    def _dumps(data: Any) -> str:
        return orjson.dumps(data).decode()
except ImportError:  # pragma: no cover
    _loads, _dumps = json.loads, json.dumps

#: A state message's head, as the server writes it (compact, its keys in this order).
_STATE = re.compile(r'\{"type":"state","table":"[^"]*","version":\d+,"hand":(\d+),"seq":\d+,"status":"(\w+)",'
                    r'"decision":(null|\d+)')


class Player:
    """One table's client seat: plays a random legal action at each decision and times each ack. A measuring
    tool, kept cheap: it reads only the head of each state (orjson where installed) and the legal actions of
    the ones it answers, and sends a legal action as the wire's list has it, building no engine object."""

    def __init__(self, url: str, table: str, token: str, rng: random.Random) -> None:
        self.url, self.table, self.token, self.rng = url, table, token, rng
        self.latencies: list[float] = []
        self.acked: list[tuple[int, int, dict[str, Any]]] = []
        self.errors: list[dict[str, Any]] = []
        self.states = 0  # state messages received

    async def play(self, max_actions: int) -> None:
        """Play until ``max_actions`` are acknowledged (or the task is cancelled: the run's time is up)."""
        while True:  # a hundred hellos at once from one address may go past its burst: hello again shortly
            ws = await websockets.connect(self.url, max_size=1 << 20, compression=None)
            await ws.send(_dumps({"type": "hello", "table": self.table, "token": self.token}))
            first = await ws.recv()
            if _STATE.match(first) or _loads(first).get("code") != "rate_limited":
                break
            await ws.close()
            await asyncio.sleep(0.5 + self.rng.random())
        async with ws:
            answered: tuple[int, int] | None = None
            readied = -1
            sent_at = 0.0
            pending: dict[str, Any] | None = None
            raw: Any = first
            while len(self.acked) < max_actions:
                if raw is None:
                    raw = await ws.recv()
                assert isinstance(raw, str)
                text, raw = raw, None
                head = _STATE.match(text)
                if head is None:  # an ack or an error: small
                    message = _loads(text)
                    if message["type"] == "ack":
                        self.latencies.append(time.perf_counter() - sent_at)
                        assert pending is not None
                        self.acked.append((message["hand"], message["seq"], pending))
                    elif message["type"] == "error":
                        self.errors.append(message)
                    pending = None
                    continue
                # A state: only its head is read, and its legal actions when the seat has a new decision.
                self.states += 1
                hand, status, decision = int(head[1]), head[2], head[3]
                if status == "hand_over":
                    if hand != readied:  # once a hand: a second `next` may find it dealt
                        readied = hand
                        await ws.send('{"type":"next"}')
                    continue
                if status != "playing" or decision == "null" or pending is not None:
                    continue
                key = (hand, int(decision))
                if key == answered:
                    continue
                start = text.index('"legal_actions":', head.end()) + 16
                legal = _loads(text[start:text.index(',"result":', start)])
                action = legal[int(self.rng.random() * len(legal))]
                answered, pending, sent_at = key, action, time.perf_counter()
                await ws.send(_dumps({"type": "action", "decision": key[1], "action": action}))


async def run_clients(bases: list[str], tables: int, seconds: float, max_actions: int, seed: int,
                      think_ms: int, server_pids: list[int], cross: bool = False) -> tuple[list[Player], float, float]:
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            while True:  # the server limits each address's request rate: wait for it
                reply = await client.post(path, json=body)
                if reply.status_code != 429:
                    assert reply.status_code == 201, reply.text
                    data: dict[str, Any] = reply.json()
                    return data
                await asyncio.sleep(0.1)

        players = []
        for index in range(tables):
            base = bases[index % len(bases)]  # the process that creates the table holds it
            table = (await post(f"{base}/api/tables", {"rules": "guangdong", "bots": [1, 2, 3], "bot": "random",
                                                       "think_ms": think_ms, "claim_seconds": 0, "hands": 64,
                                                       "seed": seed * 100_000 + index}))["id"]
            token = (await post(f"{base}/api/tables/{table}/join", {"seat": 0}))["token"]
            entry = bases[(index + cross) % len(bases)]
            players.append(Player(entry.replace("http", "ws") + "/api/ws", table, token, random.Random(rng.random())))
    started = time.perf_counter()
    cpu = sum(cpu_seconds(pid) for pid in server_pids)
    tasks = [asyncio.create_task(p.play(max_actions)) for p in players]
    await asyncio.wait(tasks, timeout=seconds)
    cpu = sum(cpu_seconds(pid) for pid in server_pids) - cpu
    for task in tasks:
        task.cancel()  # an action sent and not yet acknowledged is not counted (it may be stored: verify allows)
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True)
              if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    if failed:
        raise failed[0]
    return players, time.perf_counter() - started, cpu


def verify(db: str, players: list[Player]) -> tuple[int, int, int]:
    """(stored actions, lost, duplicated): every acked action at its place once; every table's log whole."""
    sys.path.insert(0, str(TESTS))
    from serve_helpers import open_client
    from test_serve_storage import check_stored_table

    lost = duplicated = stored = 0
    with open_client(db, drive=False) as local:
        storage = local.app.state.host.storage
        for player in players:
            check_stored_table(local, player.table)
            by_hand: dict[int, list[tuple[int, int, dict[str, Any]]]] = {}
            hands = {h for h, _, _ in player.acked} | {0}
            for hand in range(max(hands) + 1):
                by_hand[hand] = local.portal.call(storage.actions, player.table, hand)
                stored += len(by_hand[hand])
            seen = set()
            for hand, seq, action in player.acked:
                key = (hand, seq)
                duplicated += key in seen
                seen.add(key)
                rows = by_hand.get(hand, [])
                if seq >= len(rows) or rows[seq][2] != action:
                    lost += 1
    return stored, lost, duplicated


class CountingDatabase:
    """A database that stores nothing and answers at once, counting the bytes of every write's values."""

    def __init__(self) -> None:
        self.bytes = 0

    async def run(self, statements: Any) -> None:
        self.bytes += sum(len(value.encode()) if isinstance(value, str) else 8
                          for _, params, _ in statements for value in params)

    async def fetch(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        return []

    async def close(self) -> None:
        pass


async def per_action_costs(hands: int, windows: tuple[range, ...]) -> list[tuple[float, float, int]]:
    """``(bytes, CPU µs, count)`` per action in each window of action numbers, over ``hands`` hands of bots."""
    from hupai.bots import RandomBot
    from hupai.serve.commit import commit
    from hupai.serve.storage import Storage
    from hupai.serve.tables import Table, parse_config

    db = CountingDatabase()
    storage = Storage(db)  # type: ignore[arg-type]
    sums = [[0.0, 0.0, 0] for _ in windows]
    for hand in range(hands):
        config, rules, seed = parse_config({"rules": "guangdong", "bots": [0, 1, 2, 3], "bot": "random",
                                            "claim_seconds": 0, "hands": 1, "seed": hand})
        table = await Table.create(f"t{hand}", config, rules, seed, storage)
        bot = RandomBot(hand)
        while table.status == "playing":
            seat = next(iter(table.decisions))
            action = bot.act(table.game.observation(seat))
            before, started = db.bytes, time.process_time()
            await commit(table, seat, action)
            cpu, written = time.process_time() - started, db.bytes - before
            for index, window in enumerate(windows):
                if table.seq - 1 in window:
                    sums[index][0] += written
                    sums[index][1] += cpu * 1e6
                    sums[index][2] += 1
    return [(b / max(n, 1), c / max(n, 1), int(n)) for b, c, n in sums]


def report_per_action(hands: int = 40) -> None:
    windows = (range(0, 32), range(96, 128))
    (early_b, early_c, early_n), (late_b, late_c, late_n) = asyncio.run(per_action_costs(hands, windows))
    print(f"per action, {hands} hands of 4 random bots: actions 0-31: {early_b:.0f} B written, {early_c:.0f} µs CPU "
          f"({early_n} actions); actions 96-127: {late_b:.0f} B, {late_c:.0f} µs ({late_n}); late/early: bytes "
          f"{late_b / early_b:.2f}, CPU {late_c / early_c:.2f}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), a figure that a busy machine does not blur
    the way it blurs wall-clock rates."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the clients play (a bound)")
    parser.add_argument("--max-actions", type=int, default=10_000, help="per client (a bound)")
    parser.add_argument("--think-ms", type=int, default=0, help="the server bots' think time")
    parser.add_argument("--db", default=None, help="default: a fresh SQLite file in a temp dir; 'pg': a throwaway "
                        "PostgreSQL; a postgresql:// URL: a fresh database on that server")
    parser.add_argument("--processes", type=int, default=1, help="hupai serve --cluster processes (PostgreSQL)")
    parser.add_argument("--cluster", action="store_true", help="cluster mode even for one process")
    parser.add_argument("--cross", action="store_true", help="each client connects to another process than the "
                        "table's (relayed)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-action", action="store_true", help="only the per-action cost, in this process")
    args = parser.parse_args(argv)
    # Bounds on what a user types: each table is a client task and a socket, each process a server.
    if not 1 <= args.tables <= 10_000:
        parser.error(f"--tables must be in 1..10000, got {args.tables}")
    if not 1 <= args.processes <= 16:
        parser.error(f"--processes must be in 1..16, got {args.processes}")
    if not 0 < args.seconds <= 3600:
        parser.error(f"--seconds must be in (0, 3600], got {args.seconds}")
    report_per_action()
    if args.per_action:
        return 0
    sys.path.insert(0, str(TESTS))
    from serve_helpers import ONE_ADDRESS, free_port, postgres_server, server

    workdir = Path(tempfile.mkdtemp(prefix="hupai-load-"))
    with ExitStack() as stack:
        db = args.db or f"sqlite:///{workdir / 'load.db'}"
        if db == "pg":
            db = stack.enter_context(postgres_server())
        if db.startswith(("postgresql:", "postgres:")):
            db = stack.enter_context(fresh_database(db))
        elif args.processes > 1 or args.cluster:
            parser.error("--processes and --cluster need PostgreSQL (--db pg or a postgresql:// URL)")
        # Every client shares 127.0.0.1: the per-address limits (tables, connections, the HTTP budget the
        # hellos share) are raised for it, as behind a proxy; each WebSocket keeps its own message rate limit.
        # A seat is not counted away while the tables are made (a thousand take a while, and a seat away is
        # played by the server's bot: its table would play on alone before its client connects).
        flags = (*ONE_ADDRESS, "--http-rate", "1000000", "--http-burst", "1000000", "--absent-seconds", "3600",
                 *(("--cluster",) if args.processes > 1 or args.cluster else ()))
        ports = [args.port + k if args.port else free_port() for k in range(args.processes)]
        processes = [stack.enter_context(server(db, port, workdir / f"server{k}.log", flags))
                     for k, port in enumerate(ports)]
        players, elapsed, cpu = asyncio.run(run_clients([f"http://127.0.0.1:{port}" for port in ports], args.tables,
                                                        args.seconds, args.max_actions, args.seed, args.think_ms,
                                                        [p.pid for p in processes], args.cross))
        for process in processes:
            process.kill()
            process.wait()
        result = verify(db, players)
    report(args, players, elapsed, cpu, *result)
    return 0 if result[1] == result[2] == 0 and not any(p.errors for p in players) else 1


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A new database on the PostgreSQL server of ``url``, dropped afterwards (a cluster run finds no table of
    an earlier run to take over)."""
    import psycopg

    name = f"hupai_load_{os.getpid()}_{random.randrange(1 << 30)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def report(args: argparse.Namespace, players: list[Player], elapsed: float, cpu: float, stored: int, lost: int,
           duplicated: int) -> None:
    latencies = [x for p in players for x in p.latencies]
    acked = sum(len(p.acked) for p in players)
    errors = [e for p in players for e in p.errors]
    print(f"{args.processes} process(es){' (cluster)' if args.processes > 1 or args.cluster else ''}"
          f"{', clients relayed' if args.cross else ''}: {args.tables} tables, {elapsed:.1f} s: {acked} client "
          f"actions acknowledged ({acked / elapsed:.0f}/s), {stored} actions stored in all ({stored / elapsed:.0f}/s, "
          "bots included)")
    print(f"ack latency: p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} "
          f"ms, mean {statistics.fmean(latencies) * 1000 if latencies else float('nan'):.1f} ms; "
          f"{sum(p.states for p in players) / max(acked, 1):.1f} state messages per client action")
    print(f"server CPU: {cpu:.1f} s in {elapsed:.1f} s of play, {cpu / max(stored, 1) * 1000:.2f} ms per stored action "
          "(stored counts every hand the tables played, a few actions before the clients started)")
    codes = Counter(str(e.get("code")) for e in errors)
    print(f"lost {lost}, duplicated {duplicated}, refused {len(errors)}"
          + (f" ({', '.join(f'{code}: {n}' for code, n in codes.most_common())}; first: {errors[0]})"
             if errors else ""))


if __name__ == "__main__":
    sys.exit(main())
