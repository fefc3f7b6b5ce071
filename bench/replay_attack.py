"""Replays under attack: what ``/replay/{id}`` costs a ``hupai serve`` process, and what a crowd of replay requests
does to a seat playing at the same time.

    .venv/bin/python bench/replay_attack.py --tables 34 --hands 16

Bot-only tables of ``--hands`` hands are played to their end; then, on a fresh server process over the same
database (every cache cold), each table's replay is asked for once: the whole table as a browser sees it (the
page, and every hand it fetches when picked). Reported: the server's CPU per table replayed and its resident
memory after them all. Then, again on a fresh process, one table with a client seat (a WebSocket, a random
player: bench/serve_load.py's) plays for ``--seconds`` alone, then as long again while ``--hammer`` clients ask
for the replays of every table in a loop as fast as they are answered; reported: the seat's ack latency (p50,
p99) both ways, and what the replay clients were answered.

``--code DIR`` runs the server from another checkout's ``python/`` tree (with this build's ``_core`` copied
into it), to compare a build before and after in one run on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_load import Player, cpu_seconds, percentile  # noqa: E402

LIFTED = ("--max-connections", "100000", "--max-tables-per-address", "1000000", "--tables-per-window", "1000000",
          "--max-bot-tables", "1000000")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    def __init__(self, db: str, code: str | None, log: Path) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cli = ["serve", "--db", db, "--port", str(self.port), *LIFTED]
        if code is None:
            command = [sys.executable, "-m", "hupai.cli", *cli]
        else:  # no site .pth (the editable install's finder would win): the other tree, then the site-packages
            site = next(p for p in sys.path if p.endswith("site-packages"))
            command = [sys.executable, "-S", "-c", f"import sys; sys.path[:0] = [{code!r}, {site!r}]; "
                       f"from hupai.cli import main; sys.exit(main({cli!r}))"]
        self.process = subprocess.Popen(command, stdout=log.open("ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{self.base}/api/rules", timeout=1)
                return
            except httpx.HTTPError:
                assert self.process.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
                time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def replay_urls(client: httpx.Client, table_id: str) -> list[str]:
    """What a browser fetches to see the whole table: the page, and each hand it loads on demand (none for a
    page that holds every hand)."""
    page = client.get(f"/replay/{table_id}")
    opening = '<script id="hands" type="application/json">'
    start = page.text.index(opening) + len(opening)
    hands = json.loads(page.text[start:page.text.index("</script>", start)])
    return [hand["src"] for hand in hands if "src" in hand]


def play(db: str, code: str | None, log: Path, args: argparse.Namespace) -> list[str]:
    """``--tables`` bot-only tables of ``--hands`` hands played to their end; their ids."""
    server = Server(db, code, log)
    with httpx.Client(base_url=server.base, timeout=120) as client:
        ids = [client.post("/api/tables", json={"rules": "guangdong", "bots": [0, 1, 2, 3], "think_ms": 0,
                                                "hands": args.hands, "seed": k}).json()["id"]
               for k in range(args.tables)]
        while any(client.get(f"/api/tables/{i}").json()["status"] != "match_over" for i in ids):
            time.sleep(0.5)
    server.stop()
    return ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=34)
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--hammer", type=int, default=6, help="replay clients at once (default 6)")
    parser.add_argument("--seconds", type=float, default=15.0, help="of play alone, then under the hammer")
    parser.add_argument("--code", default=None, help="a python/ tree to run the server from")
    parser.add_argument("--played", default=None, metavar="DIR",
                        help="keep the played tables here, and reuse them if they are there already (to compare "
                             "two builds on the same tables without playing them twice)")
    parser.add_argument("--latency-only", action="store_true", help="skip the cold replay of every table")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="hupai-replay-attack-"))
    code = None
    if args.code is not None:  # the other tree, with this build's core
        import hupai._core as core

        code = str(Path(args.code).resolve())
        shutil.copy(core.__file__, Path(code) / "hupai" / Path(str(core.__file__)).name)
    db = f"sqlite:///{work / 'replay.db'}?synchronous=normal"  # no flush per action: the latency is the server's
    log = work / "server.log"
    played = Path(args.played) if args.played else None
    try:
        if played is not None and (played / "ids.json").exists():
            shutil.copy(played / "replay.db", work / "replay.db")
            ids = json.loads((played / "ids.json").read_text())
        else:
            ids = play(db, code, log, args)
            if played is not None:
                played.mkdir(parents=True, exist_ok=True)
                shutil.copy(work / "replay.db", played / "replay.db")
                (played / "ids.json").write_text(json.dumps(ids))

        if not args.latency_only:
            server = Server(db, code, log)  # cold caches
            with httpx.Client(base_url=server.base, timeout=120) as client:
                rss_before = rss_mb(server.process.pid)
                cpu0, wall0, requests = cpu_seconds(server.process.pid), time.perf_counter(), 0
                for table_id in ids:
                    urls = replay_urls(client, table_id)
                    requests += 1
                    for url in urls:
                        while (reply := client.get(url)).status_code == 429:  # this build's per-address pace
                            time.sleep(0.2)
                            requests += 1
                        assert reply.status_code == 200, reply.text[:200]
                        requests += 1
                cpu = cpu_seconds(server.process.pid) - cpu0
                wall = time.perf_counter() - wall0
                print(f"replays of {args.tables} tables x {args.hands} hands, cold: server CPU {cpu:.2f} s "
                      f"({cpu / args.tables:.3f} s per table, {cpu / (args.tables * args.hands) * 1000:.1f} ms per "
                      f"hand; {requests} requests in {wall:.1f} s); RSS {rss_before:.0f} -> "
                      f"{rss_mb(server.process.pid):.0f} MB")
            server.stop()

        server = Server(db, code, log)  # cold again, for the hammer
        quiet, loud, answers = asyncio.run(_latency(server.base, ids, args))
        print(f"seat ack latency p50/p99: alone {percentile(quiet, 0.5) * 1000:.1f}/"
              f"{percentile(quiet, 0.99) * 1000:.1f} ms ({len(quiet)} acks); with {args.hammer} replay clients "
              f"{percentile(loud, 0.5) * 1000:.1f}/{percentile(loud, 0.99) * 1000:.1f} ms ({len(loud)} acks); "
              f"replay answers {dict(answers)}; RSS after {rss_mb(server.process.pid):.0f} MB")
        server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


async def _latency(base: str, ids: list[str], args: argparse.Namespace) -> tuple[list[float], list[float],
                                                                                Counter[int]]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        table = (await client.post("/api/tables", json={"rules": "guangdong", "bots": [1, 2, 3], "think_ms": 0,
                                                        "hands": 64})).json()
        token = (await client.post(f"/api/tables/{table['id']}/join", json={"seat": 0})).json()["token"]
        player = Player(base.replace("http", "ws") + "/api/ws", table["id"], token, random.Random(1))
        playing = asyncio.get_running_loop().create_task(player.play(10**9))
        await asyncio.sleep(2)  # the table dealt and the seat playing: then the quiet window
        start = len(player.latencies)
        await asyncio.sleep(args.seconds)
        quiet = player.latencies[start:]
        # The replay clients in a process of their own (their work is not the seat client's); the loud window
        # opens once they are sending.
        context = multiprocessing.get_context("spawn")
        results: Any = context.Queue()
        sending, stop = context.Event(), context.Event()
        hammer = context.Process(target=_hammer, args=(base, ids, args.hammer, sending, stop, results))
        hammer.start()
        await asyncio.get_running_loop().run_in_executor(None, sending.wait, 120)
        start = len(player.latencies)
        await asyncio.sleep(args.seconds)
        loud = player.latencies[start:]
        stop.set()
        answers = Counter({int(k): v for k, v in results.get(timeout=120).items()})
        hammer.join(30)
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
        return quiet, loud, answers


def _hammer(base: str, ids: list[str], clients: int, sending: Any, stop: Any, results: Any) -> None:
    """``clients`` replay clients asking for every table's replay (the page and each hand it loads) in a loop
    until ``stop``; puts the count of each HTTP status answered."""
    answers: Counter[int] = Counter()

    async def one(client: httpx.AsyncClient, k: int) -> None:
        urls: list[str] = []
        for table_id in ids[k::clients] + ids[:k:clients]:
            page = await client.get(f"/replay/{table_id}")
            answers[page.status_code] += 1
            if page.status_code == 200:
                urls += [f"/replay/{table_id}"] + _srcs(page.text)
        while urls:
            for url in urls:
                reply = await client.get(url)
                answers[reply.status_code] += 1

    async def run() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=300) as client:
            tasks = [asyncio.get_running_loop().create_task(one(client, k)) for k in range(clients)]
            sending.set()
            while not stop.is_set():
                await asyncio.sleep(0.1)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    results.put(dict(answers))


def _srcs(page: str) -> list[str]:
    opening = '<script id="hands" type="application/json">'
    start = page.index(opening) + len(opening)
    return [hand["src"] for hand in json.loads(page[start:page.index("</script>", start)]) if "src" in hand]


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
