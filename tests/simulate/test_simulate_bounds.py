"""Bounded resources (issue 21 item 4), with real processes: a killed ``hupai simulate`` leaves no worker
behind (``kill -9`` included, fork and forkserver workers), Ctrl-C ends the workers at once, ``--workers`` and
``--hands`` beyond what makes sense are usage errors, and the driver's memory does not grow with the hands."""

from __future__ import annotations

import inspect
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import hupai
import pytest
from hupai.simulate import MAX_HANDS, SimulationSpec, backends, max_workers
from hupai.simulate.chunk import ChunkResult, resolve_bots
from hupai.simulate.stats import Stats

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads processes from /proc (Linux)")

CLI = "import sys; from hupai.cli import main; sys.exit(main())"

# The library in a child process: optionally with a thread running first (workers then come from a fork
# server, not from fork), then a long simulation.
LIBRARY = """
import sys, threading, time, hupai
if sys.argv[1] == "thread":
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
try:
    hupai.simulate("guangdong", hands=10**9, bots="random", workers=2, chunk_size=int(sys.argv[2]))
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()
    except OSError:
        return None


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"  # a zombie has ended (its reaper may be slow)


def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None and fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


#: every process a test saw its child start: killed at the end of the test whatever happened (an orphan too)
_SEEN: dict[int, str] = {}  # pid -> its start time (a pid reused by another process is not killed)


def _helper(pid: int, driver: int) -> bool:
    """A fork server or resource tracker the driver started (not a worker)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            words = cmdline.read()
    except OSError:
        return False
    fields = _stat(pid)
    return fields is not None and int(fields[1]) == driver and (b"forkserver" in words or b"resource_tracker" in words)


def _wait_for_workers(process: subprocess.Popen[str], count: int, timeout: float = 120.0) -> set[int]:
    """Every descendant of ``process`` once at least ``count`` workers among them are busy (have used CPU)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, f"exited early: {process.communicate()}"
        found = _descendants(process.pid)
        _SEEN.update({pid: fields[19] for pid in found if (fields := _stat(pid)) is not None})
        busy = {pid for pid in found if not _helper(pid, process.pid)
                and (fields := _stat(pid)) is not None and int(fields[11]) > 0}  # utime
        if len(busy) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {count} busy workers within {timeout} s")


def _gone_within(pids: set[int], seconds: float) -> set[int]:
    """The pids still alive after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(map(_alive, pids)):
        time.sleep(0.05)
    return {pid for pid in pids if _alive(pid)}


@contextmanager
def _started(*argv: str, **kwargs: Any) -> Iterator[subprocess.Popen[str]]:
    """A child in its own session; it and anything it started are killed at the end, whatever the test did."""
    process = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, **kwargs)
    try:
        yield process
    finally:
        if process.poll() is None:
            _SEEN.update({pid: fields[19] for pid in _descendants(process.pid) if (fields := _stat(pid))})
            process.kill()
        for pid, started in _SEEN.items():
            if (fields := _stat(pid)) is not None and fields[0] != "Z" and fields[19] == started:
                os.kill(pid, signal.SIGKILL)
        _SEEN.clear()
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # an unseen orphan holds the pipes: do not hang the session
            pass


@pytest.mark.parametrize("start", ["fork", "thread"])
def test_workers_die_with_a_killed_driver(start: str) -> None:
    """kill -9 of the driver: its workers (forked, or from the fork server when a thread runs) end within
    seconds instead of playing on as orphans."""
    with _started("-c", LIBRARY, start, "50") as process:
        workers = _wait_for_workers(process, 2)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert _gone_within(workers, 10.0) == set()


def test_the_cli_killed_leaves_no_workers() -> None:
    with _started("-c", CLI, "simulate", "--hands", "100000000", "--bots", "random", "--workers", "2",
                  "--no-progress") as process:
        workers = _wait_for_workers(process, 2)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert _gone_within(workers, 10.0) == set()


def test_ctrl_c_ends_the_cli_and_its_workers() -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it): the summary of what finished, exit
    130, no worker left."""
    with _started("-c", CLI, "simulate", "--hands", "100000000", "--bots", "random", "--workers", "2",
                  "--no-progress") as process:
        workers = _wait_for_workers(process, 2)
        time.sleep(1.0)  # some chunks finish
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 130, err
        assert "(interrupted)" in out and "hupai: interrupted after" in err and "Traceback" not in err
        assert _gone_within(workers, 5.0) == set()


def test_ctrl_c_stops_workers_in_the_middle_of_a_long_chunk() -> None:
    """A chunk of 10**6 hands takes many minutes: the workers are stopped, not waited for."""
    with _started("-c", LIBRARY, "fork", str(10**6)) as process:
        workers = _wait_for_workers(process, 2)
        began = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert time.monotonic() - began < 15, "the driver waited for the running chunks"
        assert "interrupted" in out, err
        assert _gone_within(workers, 5.0) == set()


def test_too_many_workers_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-c", CLI, "simulate", "--workers", "10000", "--hands", "50"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith(f"hupai: workers must be at most {max_workers():,}") and done.stdout == ""
    with pytest.raises(hupai.HupaiError, match="workers must be at most"):
        hupai.simulate("guangdong", hands=50, workers=max_workers() + 1)


def test_workers_are_capped_by_the_chunks() -> None:
    result = hupai.simulate("guangdong", hands=100, bots="random", workers=max_workers(), chunk_size=50)
    assert result.workers == min(2, max_workers()) and result.hands == 100
    assert result.chunks_done == [(0, 100)]  # adjacent chunks joined: one range for a finished run


@pytest.mark.parametrize("hands", ["99999999999999999999999", str(MAX_HANDS + 1)])
def test_more_hands_than_could_ever_run_is_a_usage_error(hands: str) -> None:
    done = subprocess.run([sys.executable, "-c", CLI, "simulate", "--hands", hands], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stderr.startswith(f"hupai: hands: at most {MAX_HANDS:,} hands")
    with pytest.raises(hupai.HupaiError, match="at most"):
        hupai.simulate("guangdong", hands=MAX_HANDS // 4 + 1, bots=["greedy", "random", "random", "random"],
                       rotate=True)  # 4 seatings each: more than MAX_HANDS games


def _limit_memory() -> None:
    # A ceiling for the child: if the chunks were listed up front, it fails at once instead of taking the
    # machine's memory (the kernel's OOM killer) down with it.
    limit = 3 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_the_driver_memory_does_not_grow_with_the_hands() -> None:
    """10**12 hands: the driver starts at once and its resident memory stays flat while the workers play."""
    with _started("-c", CLI, "simulate", "--hands", str(MAX_HANDS), "--bots", "random", "--workers", "2",
                  "--no-progress", preexec_fn=_limit_memory) as process:
        _wait_for_workers(process, 2)
        first = _rss_kib(process.pid)
        time.sleep(3.0)
        assert process.poll() is None, process.communicate()
        grown = _rss_kib(process.pid) - first
        assert grown < 20_000, f"the driver grew by {grown} KiB in 3 s"


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def test_chunks_are_made_as_they_are_handed_out() -> None:
    """The chunks are a generator (a run of 10**12 hands never lists them), and the driver's loop asks for one
    only when one of a bounded window is free."""
    spec = SimulationSpec("guangdong", {}, resolve_bots("random", 4), 1, 10**6, 50, "eligible")
    assert inspect.isgenerator(spec.chunks())
    made: list[tuple[int, int]] = []
    window = 6

    def submit(start: int, stop: int) -> tuple[int, int]:
        made.append((start, stop))
        return start, stop

    def next_done(pending: list[Any]) -> tuple[list[ChunkResult], list[Any]]:
        assert len(pending) <= window
        start, stop = pending[0]
        return [ChunkResult(start, stop, Stats(4), 0.0, 0.0)], pending[1:]

    received = []

    def on_result(result: ChunkResult) -> None:
        received.append(result.start)
        if len(received) == 100:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        backends._stream(spec, window, submit, next_done, lambda pending: None, on_result)
    assert len(made) <= 100 + window and made[0] == (0, 50) and made[-1][1] <= 50 * (100 + window)


def test_a_worker_killed_mid_run_is_a_clear_error_and_stops_the_others() -> None:
    """kill -9 of one worker (the out-of-memory killer does the same): one line naming what happened, exit 2,
    no traceback, the other workers stopped."""
    with _started("-c", CLI, "simulate", "--hands", "100000000", "--bots", "random", "--workers", "2",
                  "--no-progress") as process:
        workers = {pid for pid in _wait_for_workers(process, 2) if not _helper(pid, process.pid)}
        os.kill(min(workers), signal.SIGKILL)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 2, err
        assert err.startswith("hupai: a worker process ended abruptly") and "Traceback" not in err, err
        assert _gone_within(workers, 5.0) == set()
