"""Chaos in a cluster: two ``hupai serve --cluster`` processes over one throwaway PostgreSQL, each killed with
SIGKILL in turn at random moments (and started again) while every rule system is played by scripted human seats
(over HTTP and the WebSocket, each connected to the process that did not create its table, so its every
message is forwarded or relayed) and by the server's bots. At the end every table has finished its match, and
nothing acknowledged is lost or stored twice.

The short version (``HUPAI_CHAOS_KILLS``, default 3 kills) runs with the suite; ``make chaos`` runs a longer
one, as for the single process (``test_serve_chaos.py``, whose seats this test reuses).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx
from serve_helpers import free_port, server
from test_serve_chaos import HANDS, KILLS, PLAYERS, SEED, Seat, check_stored
from test_serve_cluster import FLAGS


class Process:
    """One ``hupai serve --cluster`` process at a fixed port, killed and started again at will."""

    def __init__(self, db: str, port: int, log: Path) -> None:
        self.db, self.port, self.log = db, port, log
        self.base = f"http://127.0.0.1:{port}"
        self._context: AbstractContextManager[subprocess.Popen[bytes]] | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self._context = server(self.db, self.port, self.log, FLAGS)
        self.process = self._context.__enter__()

    def kill(self) -> None:
        assert self._context is not None and self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._context.__exit__(None, None, None)
        self._context = self.process = None


@contextmanager
def _processes(db: str, tmp_path: Path) -> Iterator[list[Process]]:
    processes = [Process(db, free_port(), tmp_path / f"process{k}.log") for k in range(2)]
    try:
        for process in processes:
            process.start()
        yield processes
    finally:
        for process in processes:
            if process.process is not None:
                process.kill()


def test_kill_9_each_process_in_turn(cluster_db: str, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    deadline = time.monotonic() + 90 + 30 * KILLS
    seats: list[Seat] = []
    tables: list[str] = []
    with _processes(cluster_db, tmp_path) as processes:
        for index, (rules, n) in enumerate(PLAYERS.items()):
            home, other = processes[index % 2], processes[(index + 1) % 2]
            common = {"rules": rules, "think_ms": 30, "claim_seconds": 0, "hands": HANDS[rules]}
            bots = httpx.post(f"{home.base}/api/tables", json={**common, "bots": list(range(n)), "seed": 100 + index})
            human = httpx.post(f"{home.base}/api/tables", json={**common, "bots": list(range(1, n)),
                                                                 "seed": 200 + index})
            assert bots.status_code == human.status_code == 201, (bots.text, human.text)
            tables += [bots.json()["id"], human.json()["id"]]
            joined = httpx.post(f"{other.base}/api/tables/{human.json()['id']}/join", json={"seat": 0})
            assert joined.status_code == 201, joined.text
            seats.append(Seat(other.base, human.json()["id"], joined.json()["token"], index,
                              websocket=index % 2 == 1, deadline=deadline))
        for seat in seats:
            seat.start()
        for kill in range(KILLS):
            victim = processes[kill % 2]
            time.sleep(rng.uniform(0.3, 2.0))
            victim.kill()
            time.sleep(rng.uniform(0.3, 2.0))
            victim.start()
        for seat in seats:
            seat.join(max(0.0, deadline - time.monotonic()))
            assert seat.failure is None, seat.failure
            assert seat.finished, f"table {seat.table_id} did not finish"
        while any(httpx.get(f"{processes[0].base}/api/tables/{t}", timeout=10).json()["status"] != "match_over"
                  for t in tables):
            assert time.monotonic() < deadline, "a table of bots did not finish"
            time.sleep(0.2)
    for log in tmp_path.glob("process*.log"):
        text = log.read_text()
        assert "Traceback" not in text and "could not be restored" not in text, text[-3000:]
    check_stored(cluster_db, tables, seats)
