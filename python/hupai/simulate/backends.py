"""Where chunks run: in this process, in local worker processes, or as Ray tasks.

Every backend runs the same :func:`~hupai.simulate.chunk.run_chunk` on the same chunks and hands each
:class:`~hupai.simulate.chunk.ChunkResult` to ``on_result`` in this process as it completes (in any order:
the totals do not depend on it). A bounded number of chunks is in flight at once, so a run of millions of
hands neither queues millions of tasks nor holds their results. On KeyboardInterrupt a backend cancels what has
not started, lets running chunks end (a chunk is short), and re-raises: the caller keeps what arrived.
"""

from __future__ import annotations

import concurrent.futures as futures
import logging
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..errors import HupaiError
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


def _ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's foreground group: the driver alone handles it (and stops
    # the pool), so workers do not each print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    spec.check_picklable("worker processes")  # fork would not need it, but the result must not depend on how

    def next_done(pending: list[Any]) -> tuple[list[ChunkResult], list[Any]]:
        done, rest = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
        return [future.result() for future in done], list(rest)

    with futures.ProcessPoolExecutor(workers, mp_context=_context(), initializer=_ignore_sigint) as pool:
        def cancel(pending: list[Any]) -> None:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)  # running chunks end (they are short)

        # 3 chunks a worker: enough queued that no worker waits on the driver, few enough to stop quickly.
        _stream(spec, 3 * workers, lambda start, stop: pool.submit(run_chunk, spec, start, stop), next_done,
                cancel, on_result)


def _run_ray(spec: SimulationSpec, workers: int | None, on_result: OnResult, address: str | None) -> None:
    try:
        import ray
    except ImportError:
        raise HupaiError("backend='ray' needs Ray: pip install 'hupai[ray]'") from None
    started = False
    if not ray.is_initialized():
        # A local instance sized to `workers`, or the cluster at `address` ("auto": the one this machine is in).
        kwargs: dict[str, Any] = {"address": address} if address else {"num_cpus": workers}
        ray.init(include_dashboard=False, logging_level=logging.WARNING, **kwargs)
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
