"""Spectators and replays of the reference server (issue 24 items 2 and 3).

- ``GET /api/tables/{id}/watch`` (``?after=V&wait=S``: a poll, as a seat's ``/state``): the spectator's state
  (:meth:`.tables.Table.spectator_message`), a message of the same shape as a seat's state (``"type":
  "state"``) with ``"seat": null``, ``"decision": null``, no token, and the spectator's view as its
  ``observation`` (:meth:`hupai.Game.spectator_view`: what every seat may know and no more). ``timers`` gives
  the seconds left of each human seat whose timer runs (whoever is to act, or between hands who has not said
  ``next``) and its bank; ``deadline`` and ``bank``, a seat's own, are ``null``.
- ``GET /api/tables/{id}/watch/events?since=K``: the spectator's event stream (:meth:`hupai.Game.spectator_events`:
  every seat's dealt and drawn tiles masked), as a seat's ``events`` reply.
- ``WS /api/ws`` with the hello ``{"type": "hello", "table": id, "watch": true}`` (no token): the spectator's
  state at once and after every stored change, like a seat's listener; it may send ``ping`` and ``events``;
  an action, ``next`` or ``back`` is refused (``forbidden``). A table holds at most ``max_spectators``
  spectator WebSockets (``spectators``); the address's rate limits and connection cap count them as any other.
- ``GET /api/tables/{id}/hands``: the table's finished hands (number, winners, payments, drawn);
  ``/replay/{id}``: the replay viewer (:func:`hupai.viewer.viewer_html`) of the finished hands, with a hand
  picker: forwards, backwards, jump to an action, every hand face up. The page fetches each hand when it is
  picked from ``/replay/{id}/hands/{n}`` (:func:`hupai.viewer.frames` as JSON), built from the stored log, which
  holds the seed and the wall: the frames take neither (only what the table showed after each action, and the
  hands face up, the hand being over). A hand still in play is not replayable. The stored hands are read from
  the storage, so an expired table's hands stay replayable. Building a hand's replay is bounded per process
  and per client address, and each is built once (:class:`Replays`).
- ``/watch/{id}``: the browser table in watch mode (the same page as a seat's).
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from contextlib import suppress
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.websockets import WebSocketDisconnect

from ..errors import HupaiError
from .host import Connection, Host
from .limits import Bucket, address, error_reply
from .storage import Storage, dumps
from .tables import SPECTATOR, Listener, Table
from .wire import WireError, facts_to_wire

__all__ = ["Replays", "poll", "spectator_text", "watch_state", "watch_events", "table_hands", "replay_page",
           "replay_hand", "serve_spectator"]

#: The key of the spectator's facts and view as JSON text among a table's published messages (cleared on every
#: change).
_VIEW = SPECTATOR - 1


async def poll(request: Request, host: Host, table: Table, seat: int | None = None) -> None:
    """The wait of a poll (a seat's ``/state``, a spectator's ``/watch``): with ``after=V&wait=S``, until the
    table's ``version`` passes V, S seconds (``max_wait`` at most) at the longest. A waiting poll is a connection
    of its address held; a seat's also shows the seat is here."""
    try:
        after = int(request.query_params.get("after", "-1"))
        wait = min(float(request.query_params.get("wait", "0")), host.settings.max_wait)
    except ValueError:
        raise WireError("malformed", "after is an int, wait a number of seconds") from None
    if table.version <= after and wait > 0:
        client = address(request)
        host.limits.connect(client)
        if seat is not None:
            table.attach(seat)
        try:
            with suppress(asyncio.TimeoutError):
                await asyncio.wait_for(table.changed.wait(), wait)
        finally:
            if seat is not None:
                table.detach(seat)
            host.limits.disconnect(client)


async def spectator_text(table: Table) -> str:
    """The spectator's latest stored state as JSON text, built under the table's lock (a change being written is
    never shown). The view and its described facts (:func:`.wire.facts_to_wire` of its public ``extras``, as a
    seat's message has them) are built once per change, whoever asks: only the timers' seconds left are counted
    per message while a timer runs."""
    text = table.published.get(SPECTATOR)
    if text is None:
        async with table.lock:
            text = table.published.get(SPECTATOR)
            if text is None:
                tail = table.published.get(_VIEW)
                if tail is None:
                    view = table.game.spectator_view()
                    facts = facts_to_wire(table.rules, view["extras"])
                    tail = table.published[_VIEW] = f'"facts":{dumps(facts)},"observation":{dumps(view)}'
                message = table.spectator_message()
                text = f"{dumps(message)[:-1]},{tail}}}"  # the facts and the observation last, as in a seat's
                if not message["timers"]:
                    table.published[SPECTATOR] = text
    return text


async def watch_state(request: Request, host: Host) -> Response:
    """The spectator's state; with ``after=V&wait=S``, once the table's ``version`` passes V (waiting at most S
    seconds, ``max_wait`` at most: a connection of the address held meanwhile), as a seat's poll."""
    table = host.table(request.path_params["table_id"])
    await poll(request, host, table)
    return Response(await spectator_text(table), media_type="application/json")


async def watch_events(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    try:
        since = int(request.query_params.get("since", "0"))
    except ValueError:
        raise WireError("malformed", "since is an int: the number of events already read") from None
    return JSONResponse(await table.events(SPECTATOR, since))


async def _known(host: Host, table_id: Any) -> str:
    """The table's id if the server knows the table, in memory or stored; else ``not_found``."""
    if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
        raise WireError("not_found", "no such table")
    if table_id not in host.tables and table_id not in host.expired and table_id not in host.broken:
        if not await host.storage.has_table(table_id):
            raise WireError("not_found", "no such table")
    return table_id


async def table_hands(request: Request, host: Host) -> Response:
    table_id = await _known(host, request.path_params["table_id"])
    hands = await host.storage.hand_results(table_id)
    return JSONResponse({"table": table_id, "hands": [
        {"hand": hand, "winners": result.get("winners", []), "payments": result.get("payments", []),
         "drawn": result.get("drawn", False)} for hand, result in hands]})


async def replay_page(request: Request, host: Host) -> Response:
    """The viewer of the table's finished hands (``/replay/{id}``): a list of them, each fetched from
    ``/replay/{id}/hands/{n}`` when it is picked (the page itself replays nothing)."""
    from ..viewer import viewer_html

    table_id = await _known(host, request.path_params["table_id"])
    hands = await host.storage.hand_results(table_id)
    if not hands:
        return HTMLResponse("<!doctype html><meta charset=utf-8><title>hupai replay</title>"
                            "<p>No hand of this table has finished yet: a hand in play is not replayable.</p>",
                            status_code=404)
    stubs = [{"src": f"/replay/{table_id}/hands/{hand}"} for hand, _ in hands]
    return HTMLResponse(viewer_html(stubs, f"hupai replay: table {table_id}"))


async def replay_hand(request: Request, host: ReplayHost) -> Response:
    """One finished hand's replay (:func:`hupai.viewer.frames` as JSON), built once and kept compressed
    (:class:`Replays`); a finished hand never changes, so browsers may keep it too."""
    table_id = await _known(host, request.path_params["table_id"])
    try:
        hand = int(request.path_params["hand"])
    except ValueError:
        raise WireError("not_found", "no such hand") from None
    body = await host.replays.get(table_id, hand, address(request), host.storage)
    headers = {"cache-control": "public, max-age=86400, immutable"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(body, media_type="application/json", headers={**headers, "content-encoding": "gzip",
                                                                      "vary": "accept-encoding"})
    return Response(gzip.decompress(body), media_type="application/json", headers={**headers,
                                                                                   "vary": "accept-encoding"})


class Replays:
    """Finished hands' replays, built on demand at a bounded cost.

    A replay replays its hand through the engine and describes the table after every action: tens to hundreds
    of milliseconds of CPU for one hand. So each is built once and kept gzip-compressed (about a tenth of its
    JSON) in a cache bounded in bytes (``cache_bytes``, least recently used out first), at most ``builders``
    at once for the whole process (the others wait their turn, and past ``queue`` waiting are refused
    ``unavailable``), at most one at a time per client address, and per address at most ``rate`` builds a
    second after a burst of ``burst`` (``rate_limited``). Asking for a built one costs nothing of that.
    """

    def __init__(self, cache_bytes: int = 32 << 20, builders: int = 1, queue: int = 16, rate: float = 1.0,
                 burst: float = 8.0) -> None:
        self.cache_bytes, self.queue, self.rate, self.burst = cache_bytes, queue, rate, burst
        self.cached: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self.size = 0
        self.built = 0
        self._slots = asyncio.Semaphore(builders)
        self._waiting = 0
        self._building: dict[tuple[str, int], asyncio.Future[bytes]] = {}
        self._busy: set[str] = set()  # addresses with a build under way
        self._buckets: dict[str, Bucket] = {}

    async def get(self, table_id: str, hand: int, client: str, storage: Storage) -> bytes:
        key = (table_id, hand)
        body = self.cached.get(key)
        if body is not None:
            self.cached.move_to_end(key)
            return body
        build = self._building.get(key)
        if build is None:  # (else someone asked first: the same build answers both)
            self._admit(client)
            # A task of its own: a client that goes away does not waste the build (nor stop another's wait).
            build = asyncio.ensure_future(self._build(key, storage))
            self._building[key] = build
            self._busy.add(client)
            build.add_done_callback(lambda done: self._built(key, client, done))
        return await asyncio.shield(build)

    async def _build(self, key: tuple[str, int], storage: Storage) -> bytes:
        self._waiting += 1
        waiting = True
        try:
            async with self._slots:
                self._waiting -= 1
                waiting = False
                log = await storage.hand_log(*key)
                if log is None:
                    raise WireError("not_found", "no such finished hand at this table")
                body = await asyncio.to_thread(_build, log, key[0])
        finally:
            if waiting:  # stopped before its turn (the server stopping)
                self._waiting -= 1
        self._keep(key, body)
        return body

    def _built(self, key: tuple[str, int], client: str, build: asyncio.Future[bytes]) -> None:
        del self._building[key]
        self._busy.discard(client)
        if not build.cancelled():
            build.exception()  # retrieved here: its askers (if any are left) get it too

    def _admit(self, client: str) -> None:
        if client in self._busy:
            raise WireError("rate_limited", "a replay of yours is being built: wait for it")
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._buckets.clear()
            bucket = self._buckets[client] = Bucket(self.rate, self.burst)
        if not bucket.take():
            raise WireError("rate_limited", "too many replays asked for: wait a little")
        if self._waiting >= self.queue:
            raise WireError("unavailable", "the server is building many replays: try again in a moment")

    def _keep(self, key: tuple[str, int], body: bytes) -> None:
        self.built += 1
        self.cached[key] = body
        self.size += len(body)
        while self.size > self.cache_bytes and len(self.cached) > 1:
            _, dropped = self.cached.popitem(last=False)
            self.size -= len(dropped)


def _build(log: str, table_id: str) -> bytes:
    """One hand's replay as gzip-compressed JSON (in a worker thread)."""
    from ..viewer import frames

    try:
        replay = frames(log)
    except HupaiError as error:  # a stored log the engine refuses (tampered): the operator's to repair
        raise WireError("broken", f"this stored hand of table {table_id} cannot be replayed: "
                                  f"{str(error)[:200]}") from None
    return gzip.compress(dumps(replay).encode(), compresslevel=6)


async def serve_spectator(connection: Connection, table: Table) -> None:
    """A spectator's WebSocket after its hello: the state now and after every change; ``ping`` and ``events``
    answered, anything else refused."""
    watching = sum(1 for listener in table.listeners if listener.seat == SPECTATOR)
    if watching >= connection.host.settings.max_spectators:
        await connection.send(json.dumps(error_reply(
            "spectators", f"this table has as many spectators as it may ({connection.host.settings.max_spectators})")))
        await connection.close(1008)
        return
    listener = Listener(SPECTATOR)
    listener.event.set()
    table.listeners.add(listener)
    follower = asyncio.get_running_loop().create_task(connection.follow(table, listener))
    try:
        while True:
            try:
                data = await connection.receive()
                kind = data.get("type")
                reply: dict[str, Any]
                if kind == "ping":
                    reply = {"type": "pong"}
                elif kind == "events":
                    reply = await table.events(SPECTATOR, data.get("since", 0))
                elif kind in ("action", "next", "back", "hello"):
                    raise WireError("forbidden", "a spectator watches: it has no seat to play")
                else:
                    raise WireError("malformed", f"unknown message type {str(kind)[:20]!r}")
                if isinstance(data.get("id"), (int, str)):
                    reply["id"] = data["id"]
            except WireError as error:
                reply = error_reply(error.code, str(error))
                if error.code == "too_large":
                    await connection.send(json.dumps(reply))
                    await connection.close(1009)
                    return
            await connection.send(json.dumps(reply))
    except WebSocketDisconnect:
        return
    finally:
        table.listeners.discard(listener)
        follower.cancel()


class ReplayHost(Host, Protocol):
    """The host as the replay endpoint uses it: with its cache of built replays."""

    replays: Replays
