"""Helpers of the server tests: a seat played by a bot over the WebSocket or the HTTP poll, a throwaway
PostgreSQL, the leak check of messages against the hidden state."""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hupai.game import Game
from hupai.jsonform import CARD_NAMES
from hupai.observation import Observation
from hupai.tiles import kind_name


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def play_ws(ws: Any, bot: Any, *, stop: str = "hand_over", limit: int = 5000) -> list[dict[str, Any]]:
    """Play the WebSocket's seat with ``bot`` until the table's status is no longer ``playing`` (or is
    ``stop``); returns every message received."""
    messages: list[dict[str, Any]] = []
    answered: tuple[int, int] | None = None
    for _ in range(limit):
        message = ws.receive_json()
        messages.append(message)
        if message["type"] == "error":
            raise AssertionError(f"refused: {message}")
        if message["type"] != "state":
            continue
        if message["status"] != "playing":
            if message["status"] in (stop, "match_over"):
                return messages
            continue
        decision = message["decision"]
        if decision is not None and (message["hand"], decision) != answered:
            observation = Observation.from_json(message["observation"])
            action = bot.act(observation)  # sent in the table's notation (a Wai Huzi card as d3), as a client does
            ws.send_json({"type": "action", "decision": decision, "action": action.to_dict(len(observation.counts))})
            answered = (message["hand"], decision)
    raise AssertionError("the hand did not end")


def wire_action(bot: Any, observation: Any) -> dict[str, Any]:
    """What ``bot`` does for a state message's observation, as a client sends it (in the table's notation)."""
    seen = Observation.from_json(observation)
    action: dict[str, Any] = bot.act(seen).to_dict(len(seen.counts))
    return action


def play_http(client: Any, table_id: str, token: str, bot: Any, *, actions: int | None = None,
              timeout: float = 60.0) -> list[tuple[int, int, dict[str, Any]]]:
    """Play a seat over the HTTP poll until the hand ends (or ``actions`` were acknowledged); returns the
    acknowledged ``(hand, seq, action)``."""
    headers = {"Authorization": f"Bearer {token}"}
    acked: list[tuple[int, int, dict[str, Any]]] = []
    version = -1
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/tables/{table_id}/state", params={"after": version, "wait": 5},
                           headers=headers).json()
        version = state["version"]
        if state["status"] != "playing":
            return acked
        if state["decision"] is None:
            continue
        observation = Observation.from_json(state["observation"])
        action = bot.act(observation).to_dict(len(observation.counts))  # the table's notation
        reply = client.post(f"/api/tables/{table_id}/action", headers=headers,
                            json={"decision": state["decision"], "action": action})
        assert reply.status_code == 200, reply.text
        acked.append((reply.json()["hand"], reply.json()["seq"], {**action, "seat": state["seat"]}))
        if actions is not None and len(acked) >= actions:
            return acked
    raise AssertionError("the hand did not end in time")


def hidden_facts(game: Game, seat: int) -> tuple[list[list[int]], list[int], int]:
    """What ``seat`` must never be shown: the other seats' concealed tiles (as kind lists), the wall's
    remaining order, the seed."""
    table = game.table
    others = [[k for k in range(len(table.hands[s])) for _ in range(table.hands[s][k])]
              for s in range(table.num_players) if s != seat]
    wall = list(table.wall.tiles[table.wall.head:table.wall.tail])
    return others, wall, game.setup["seed"]


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(v) for v in value))
    return set()


_KINDS = {kind_name(kind): kind for kind in range(34)} | {name: kind for kind, name in enumerate(CARD_NAMES)}


def int_lists(value: Any) -> Iterator[list[int]]:
    """Every list of tile kinds in ``value``: lists of ints, and lists of tiles in notation (the JSON contract's
    form) read as kinds."""
    if isinstance(value, list):
        if value and all(type(v) is int for v in value):
            yield value
        elif value and all(v in _KINDS for v in value if type(v) is str) and all(type(v) is str for v in value):
            yield [_KINDS[v] for v in value]
        for item in value:
            yield from int_lists(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from int_lists(item)


def assert_no_leak(message: dict[str, Any], log: str) -> None:
    """``message`` (a state message of one seat, at its ``seq``) against the hidden state the hand's ``log``
    gives at that point: it must be exactly the engine's observation of the seat, and hold none of the other
    seats' concealed hands, the live wall in order, the seed, nor any key naming them."""
    game = Game.replay(log, upto=message["seq"])
    seat = message["seat"]
    assert message["observation"] == game.observation(seat).to_dict()
    others, wall, seed = hidden_facts(game, seat)
    text = json.dumps(message)
    assert not keys(message) & {"wall", "seed", "snapshot", "token", "log", "setup", "hands_all"}
    assert str(seed) not in text
    observation = message["observation"]
    ended = observation["result"] is not None
    # A hand its seat has laid open by rule (Kawuxing's 亮倒, KW-16: ``extras.revealed``) is public, not a leak.
    shown = [sorted(kinds) for kinds in int_lists(observation["extras"].get("revealed", []))]
    for kinds in int_lists(message):
        for hand in (hand for hand in others if hand not in shown):
            if len(hand) >= 4 and sorted(kinds) == hand:
                # Only a winner's hand laid open in the result may show another seat's tiles.
                assert ended, f"seat {seat} was shown another seat's concealed tiles {hand}"
        if len(wall) >= 8 and len(kinds) >= 8:
            joined = ",".join(map(str, kinds))
            assert ",".join(map(str, wall[:8])) not in joined, "the wall's order was shown"


def postgres_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


#: Where the throwaway clusters live: a directory each, holding ``owner`` (the pid and start time of the test
#: process that made it). A cluster whose owner is gone is stale: the next :func:`postgres_server` stops and
#: removes it (:func:`remove_stale_clusters`), so a killed test run leaks a cluster until the next run at most.
PG_ROOT = Path(tempfile.gettempdir()) / "hupai-test-pg"
#: A cluster directory younger than this with no owner file is being made by another process: left alone.
_CREATING = 120.0
_PR_SET_PDEATHSIG = 1


def _started(pid: int) -> str:
    """The process's start time in clock ticks since boot (Linux), telling a reused pid from the owner; "" where
    there is no /proc, or no such process."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return ""


def _alive(pid: int, started: str = "") -> bool:
    """Whether ``pid`` runs (not a zombie) and, if ``started`` is given and /proc tells, started then."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return not os.path.isdir("/proc/self")  # no /proc here: kill(0) is all we know
    return fields[0] != "Z" and (not started or fields[19] == started)


def _stop_postmaster(data: Path, timeout: float = 10.0) -> None:
    """Immediate shutdown (SIGQUIT) of the postmaster of ``data`` if it runs, SIGKILL if it lingers."""
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            if str(data).encode() not in cmdline.read():
                return  # the pid is another process's now
    except OSError:
        pass
    for sig, wait in ((signal.SIGQUIT, timeout), (signal.SIGKILL, timeout)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.05)
        if not _alive(pid):
            return


def remove_stale_clusters(root: Path = PG_ROOT) -> list[Path]:
    """Stop and delete every cluster under ``root`` whose owning test process is gone; returns those removed."""
    removed = []
    for cluster in sorted(root.glob("cluster-*")) if root.is_dir() else []:
        try:
            words = (cluster / "owner").read_text().split()
            owner_alive = _alive(int(words[0]), words[1] if len(words) > 1 else "")
        except FileNotFoundError:
            owner_alive = time.time() - cluster.stat().st_mtime < _CREATING
        except (OSError, ValueError, IndexError):
            owner_alive = False
        if not owner_alive:
            _stop_postmaster(cluster / "data")
            shutil.rmtree(cluster, ignore_errors=True)
            removed.append(cluster)
    return removed


def _as_postgres() -> dict[str, Any]:
    """Popen arguments that run a PostgreSQL program as the ``postgres`` user when we are root (initdb and
    postgres refuse root), else as we are."""
    if os.geteuid() != 0:
        return {}
    return {"user": "postgres", "group": "postgres", "extra_groups": []}


def _die_with_parent() -> None:
    """In the postmaster before exec (after the user change, which would clear it): the kernel sends it SIGQUIT,
    PostgreSQL's immediate shutdown, when the test process dies, however it dies."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGQUIT, 0, 0, 0)


@contextmanager
def postgres_server(die_with_owner: bool = True) -> Iterator[str]:
    """A throwaway PostgreSQL in :data:`PG_ROOT` (initdb, then the postmaster as a child of this process, as the
    ``postgres`` user when run as root); yields its URL. ``HUPAI_TEST_POSTGRES`` (a URL) uses a running one
    instead.

    The cluster does not outlive the test process: it is stopped on the way out, and on Linux the postmaster
    is the test process's child with a parent-death signal, so it shuts down even when the run is killed
    (``kill -9``); wherever that cannot happen (``die_with_owner=False``, another system), the next run removes
    it. Stale clusters of earlier runs are removed first.
    """
    url = os.environ.get("HUPAI_TEST_POSTGRES")
    if url:
        yield url
        return
    bindir = postgres_bin()
    assert bindir is not None
    PG_ROOT.mkdir(mode=0o755, exist_ok=True)
    os.chmod(PG_ROOT, 0o755)  # the postgres user walks through it
    remove_stale_clusters()
    root = Path(tempfile.mkdtemp(prefix="cluster-", dir=PG_ROOT))
    (root / "owner").write_text(f"{os.getpid()} {_started(os.getpid())}\n")
    data = root / "data"
    user = _as_postgres()
    if user:
        shutil.chown(root, "postgres", "postgres")
    os.chmod(root, 0o755)
    port = free_port()
    postmaster: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run([f"{bindir}/initdb", "-D", str(data), "-A", "trust", "-U", "hupai", "--no-sync"],
                       check=True, capture_output=True, cwd=root, **user)
        with open(root / "log", "wb") as log:
            postmaster = subprocess.Popen(
                [f"{bindir}/postgres", "-D", str(data), "-p", str(port), "-k", str(root), "-h", "127.0.0.1",
                 "-c", "fsync=off"], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=root,
                preexec_fn=_die_with_parent if die_with_owner and sys.platform.startswith("linux") else None,
                **user)
        _wait_ready(postmaster, data, root / "log")
        yield f"postgresql://hupai@127.0.0.1:{port}/postgres"
    finally:
        if postmaster is not None and postmaster.poll() is None:
            postmaster.send_signal(signal.SIGQUIT)  # immediate shutdown: a throwaway cluster needs no checkpoint
            try:
                postmaster.wait(timeout=20)
            except subprocess.TimeoutExpired:
                postmaster.kill()
                postmaster.wait()
        shutil.rmtree(root, ignore_errors=True)


def _wait_ready(postmaster: subprocess.Popen[bytes], data: Path, log: Path, timeout: float = 120.0) -> None:
    """Until the postmaster says ``ready`` in its pid file (PostgreSQL 10+), or fail with its log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if postmaster.poll() is not None:
            raise RuntimeError(f"PostgreSQL exited ({postmaster.returncode}): {log.read_text(errors='replace')}")
        try:
            lines = (data / "postmaster.pid").read_text().splitlines()
        except OSError:
            lines = []
        if len(lines) >= 8 and lines[7].strip() == "ready":
            return
        time.sleep(0.05)
    raise RuntimeError(f"PostgreSQL not ready after {timeout:.0f} s: {log.read_text(errors='replace')}")


def open_client(url: str, **settings: Any) -> Any:
    """Starlette's test client on a new app storing in ``url`` (use it as a context manager)."""
    import warnings

    from hupai.serve.app import Settings, create_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's notice that it prefers another HTTP client package
        from starlette.testclient import TestClient
    return TestClient(create_app(url, Settings(**settings)))


def new_table(client: Any, **config: Any) -> dict[str, Any]:
    body = {"rules": "guangdong", "think_ms": 0, "claim_seconds": 0, "hands": 1, "seed": 7, **config}
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    return data


def join(client: Any, table_id: str, seat: int | None = None) -> str:
    reply = client.post(f"/api/tables/{table_id}/join", json={} if seat is None else {"seat": seat})
    assert reply.status_code == 201, reply.text
    token: str = reply.json()["token"]
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


#: ``hupai serve`` flags lifting the limits per client address: every test or load client comes from 127.0.0.1.
ONE_ADDRESS = ("--max-connections", "100000", "--max-tables-per-address", "1000000", "--tables-per-window",
               "1000000", "--max-bot-tables", "1000000", "--max-sockets", "100000")


@contextmanager
def server(db: str, port: int, log: Path, flags: Sequence[str] = ONE_ADDRESS) -> Iterator[subprocess.Popen[bytes]]:
    """``hupai serve`` as a process of its own (uvicorn), ready when it yields."""
    import httpx

    with open(log, "ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "hupai.cli", "serve", "--db", db, "--port", str(port),
                                    *flags], stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/rules", timeout=1)
                break
            except httpx.HTTPError:
                assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
