"""Where chunks run: in this process, in local worker processes, or as Ray tasks.

Every backend runs the same :func:`~hupai.simulate.chunk.run_chunk` on the same chunks and hands each
:class:`~hupai.simulate.chunk.ChunkResult` to ``on_result`` in this process as it completes (in any order:
the totals do not depend on it). A bounded number of chunks is in flight at once, so a run of millions of
hands neither queues millions of tasks nor holds their results. On KeyboardInterrupt a backend cancels what has
not started, stops the local workers at once (what they were playing would be thrown away) and re-raises: the
caller keeps what arrived.

A local worker process ends with the process that started it, however that one ends (``kill -9`` included):
on Linux the kernel kills it when its parent dies (``PR_SET_PDEATHSIG``), and everywhere a watchdog thread in
the worker exits it within half a second of the driver's end (a fork server's workers keep their server alive,
so only the driver's end tells them). So a killed simulation leaves no orphans playing on.
"""

from __future__ import annotations

import concurrent.futures as futures
import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from ..errors import HupaiError, missing_extra
from .chunk import ChunkResult, SimulationSpec, run_chunk

__all__ = ["BACKENDS", "run"]

BACKENDS = ("local", "ray")

OnResult = Callable[[ChunkResult], None]


def run(spec: SimulationSpec, backend: str, workers: int | None, on_result: OnResult,
        address: str | None = None) -> None:
    """Run every chunk of ``spec`` on ``backend`` with ``workers`` processes or tasks at once."""
    if backend == "ray":
        _run_ray(spec, workers, on_result, address)
    elif address is not None:
        raise HupaiError("address is for backend='ray'")
    elif workers is None or workers == 1:
        _run_inline(spec, on_result)
    else:
        _run_pool(spec, workers, on_result)


def _run_inline(spec: SimulationSpec, on_result: OnResult) -> None:
    """One worker: the chunks in this process, no pickling (a lambda bot works here)."""
    for start, stop in spec.chunks():
        on_result(run_chunk(spec, start, stop))


#: How often a worker's watchdog looks for its parent (seconds).
WATCH_INTERVAL = 0.5
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> bool:
    """Linux: ask the kernel to SIGKILL this process when its parent dies. False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs: exists and (where /proc tells) is not a zombie, dead but not yet reaped."""
    if os.path.isdir("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                return stat.read().rpartition(b")")[2].split()[0] != b"Z"
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _watch(driver: int, parent: int) -> None:
    """Exit this worker as soon as the driver is gone or its parent changed (it died: another process adopted
    us). The driver itself is watched: a fork server's worker keeps the server alive (it holds the server's
    pipe), so its parent never dies first."""
    while os.getppid() == parent and _running(driver):
        time.sleep(WATCH_INTERVAL)
    os._exit(1)


def _init_worker(driver: int) -> None:
    """A worker's set-up: ignore Ctrl-C, end with the driver (the process running the simulation).

    Ctrl-C reaches every process of the terminal's foreground group: the driver alone handles it (and stops the
    pool), so workers do not each print a KeyboardInterrupt traceback. The kernel kills the worker when its
    parent dies (the driver, or the fork server), and a watchdog thread when the driver dies, within
    :data:`WATCH_INTERVAL`; if the driver already died before this ran, the worker exits now.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    if not _running(driver):
        os._exit(1)
    threading.Thread(target=_watch, args=(driver, os.getppid()), name="hupai-driver-watch", daemon=True).start()


def _context() -> Any:
    """fork where it is safe (Linux, no thread in this process): the workers start with hupai, its tables and
    the rules already loaded, in milliseconds. Else forkserver with hupai preloaded (fork would copy another
    thread's state mid-flight: a progress bar's monitor, Ray's), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and threading.active_count() == 1 and "fork" in methods:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["hupai.simulate.chunk"])
        return context
    return multiprocessing.get_context("spawn")


def _stream(spec: SimulationSpec, window: int, submit: Callable[[int, int], Any],
            next_done: Callable[[list[Any]], tuple[list[ChunkResult], list[Any]]],
            cancel: Callable[[list[Any]], None], on_result: OnResult) -> None:
    """Keep ``window`` chunks in flight (``submit(start, stop)`` returns a handle; ``next_done`` waits for at
    least one and returns the results and the handles still pending) and pass each result on as it comes; on
    any exception, Ctrl-C included, ``cancel`` what is pending and re-raise."""
    chunks = iter(spec.chunks())
    pending: list[Any] = []
    try:
        while True:
            while len(pending) < window:
                chunk = next(chunks, None)
                if chunk is None:
                    break
                pending.append(submit(*chunk))
            if not pending:
                break
            done, pending = next_done(pending)
            for result in done:
                on_result(result)
    except BaseException:
        cancel(pending)
        raise


def _run_pool(spec: SimulationSpec, workers: int, on_result: OnResult) -> None:

    def next_done(pending: list[Any]) -> tuple[list[ChunkResult], list[Any]]:
        done, rest = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
        return [future.result() for future in done], list(rest)

    with futures.ProcessPoolExecutor(workers, mp_context=_context(), initializer=_init_worker,
                                     initargs=(os.getpid(),)) as pool:
        def cancel(pending: list[Any]) -> None:
            for future in pending:
                future.cancel()
            # What the workers are playing would be dropped: stop them now rather than wait for their chunks. The
            # pool's manager thread then finds them gone and marks every queued chunk broken, cancelled ones too,
            # which CPython before 3.12 reports as an InvalidStateError traceback from that thread: harmless here
            # (nothing waits on those futures), so it is kept off the user's terminal until the pool is shut.
            default_hook = threading.excepthook

            def quiet(args: threading.ExceptHookArgs) -> None:
                if not (args.exc_type is futures.InvalidStateError and args.thread is not None
                        and args.thread is getattr(pool, "_executor_manager_thread", None)):
                    default_hook(args)

            threading.excepthook = quiet
            try:
                processes = getattr(pool, "_processes", None) or {}
                for process in list(processes.values()):
                    process.terminate()
                pool.shutdown(wait=True, cancel_futures=True)
            finally:
                threading.excepthook = default_hook

        # 3 chunks a worker: enough queued that no worker waits on the driver, few enough to stop quickly.
        _stream(spec, 3 * workers, lambda start, stop: pool.submit(run_chunk, spec, start, stop), next_done,
                cancel, on_result)


def _check_reachable(address: str) -> None:
    """A Ray address given as HOST:PORT (or ray://HOST:PORT) answers a TCP connection, or the error says so at
    once: Ray itself would retry for minutes, logging every try."""
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():  # "auto", "local", or a form Ray reads itself
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except (OSError, ValueError) as error:
        raise HupaiError(f"cannot reach the Ray cluster at {address!r} ({getattr(error, 'strerror', None) or error}): "
                         "check the address, or start the cluster there with `ray start --head`") from None


def _run_ray(spec: SimulationSpec, workers: int | None, on_result: OnResult, address: str | None) -> None:
    try:
        import ray
    except ImportError:
        raise missing_extra("backend='ray' (Ray)", "ray") from None
    started = False
    if not ray.is_initialized():
        # A local instance sized to `workers`, or the cluster at `address` ("auto": the one this machine is in).
        kwargs: dict[str, Any] = {"address": address} if address else {"num_cpus": workers}
        if address:
            _check_reachable(address)
        try:
            ray.init(include_dashboard=False, logging_level=logging.WARNING, **kwargs)
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
            reason = " ".join(str(error).split())[:300] or type(error).__name__
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise HupaiError(f"cannot start or reach {where}: {reason}: start one with `ray start --head`, give "
                             "its address (--address HOST:6379), or leave out --address for a local one") from None
        started = True
    try:
        task = ray.remote(num_cpus=1, max_retries=2)(run_chunk)
        spec_ref = ray.put(spec)  # sent to the object store once, not with every task
        if workers is None:  # the cluster's CPUs
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]

        def next_done(pending: list[Any]) -> tuple[list[ChunkResult], list[Any]]:
            ready, rest = ray.wait(pending, num_returns=1)
            return [ray.get(ready[0])], rest

        def cancel(pending: list[Any]) -> None:
            for ref in pending:
                ray.cancel(ref)

        _stream(spec, 3 * workers, lambda start, stop: task.remote(spec_ref, start, stop), next_done, cancel,
                on_result)
    finally:
        if started:
            ray.shutdown()
