"""The throwaway PostgreSQL of the server tests does not outlive its test process (issue 21 item 4): killed
with ``kill -9``, the process takes its cluster's postmaster with it; a cluster left running anyway (no
parent-death signal) is stopped and removed by the next session; a live process's cluster is left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serve_helpers import PG_ROOT, postgres_bin, remove_stale_clusters

pytestmark = [
    pytest.mark.skipif(postgres_bin() is None, reason="no PostgreSQL binaries (/usr/lib/postgresql/*/bin)"),
    pytest.mark.skipif(bool(os.environ.get("HUPAI_TEST_POSTGRES")), reason="a given server, not a throwaway one"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's"),
]

HERE = Path(__file__).resolve().parent

# A test process holding a cluster: prints its directory and postmaster pid, then waits to be killed.
HOLDER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from serve_helpers import PG_ROOT, postgres_server
import os
with postgres_server(die_with_owner=sys.argv[2] == "1"):
    for cluster in PG_ROOT.glob("cluster-*"):
        if (cluster / "owner").read_text().split()[0] == str(os.getpid()):
            pid = (cluster / "data" / "postmaster.pid").read_text().split()[0]
            print(cluster, pid, flush=True)
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _hold(die_with_owner: bool) -> tuple[subprocess.Popen[str], Path, int]:
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(HERE), "1" if die_with_owner else "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise AssertionError(f"the holder failed: {process.communicate()}")
    cluster, pid = line.split()
    return process, Path(cluster), int(pid)


def _wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    return not _alive(pid)


def test_a_killed_test_process_takes_its_postmaster_with_it() -> None:
    process, cluster, postmaster = _hold(die_with_owner=True)
    try:
        assert _alive(postmaster) and cluster.parent == PG_ROOT
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert _wait_gone(postmaster, 15.0), "the postmaster outlived its killed test process"
        assert cluster in remove_stale_clusters()  # and its files go at the next session's start
        assert not cluster.exists()
    finally:
        _cleanup(process, postmaster, cluster)


def test_the_next_session_stops_and_removes_a_stale_cluster() -> None:
    """No parent-death signal (another system, or a postmaster that missed it): the cluster runs on after its
    owner is killed, until the next start-up's sweep stops it and deletes its files; a cluster whose owner
    lives is not touched."""
    process, cluster, postmaster = _hold(die_with_owner=False)
    try:
        assert cluster not in remove_stale_clusters() and _alive(postmaster)  # its owner lives
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        time.sleep(0.5)
        assert _alive(postmaster), "nothing should have stopped it yet"
        assert cluster in remove_stale_clusters()
        assert _wait_gone(postmaster, 15.0) and not cluster.exists()
    finally:
        _cleanup(process, postmaster, cluster)


def _cleanup(process: subprocess.Popen[str], postmaster: int, cluster: Path) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate()
    if _alive(postmaster):
        os.kill(postmaster, signal.SIGQUIT)
        _wait_gone(postmaster, 15.0)
    remove_stale_clusters()
