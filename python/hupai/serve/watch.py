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
  ``/replay/{id}``: the replay viewer (:func:`hupai.viewer.replay_html`) of every finished hand, with a hand
  picker: forwards, backwards, jump to an action, every hand face up. It is built from the stored logs, which
  hold the seed and the wall: the viewer's frames take neither (only what the table showed after each action,
  and the hands face up, the hand being over). A hand still in play is not replayable. The stored hands are
  read from the storage, so an expired table's hands stay replayable.
- ``/watch/{id}``: the browser table in watch mode (the same page as a seat's).
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.websockets import WebSocketDisconnect

from ..errors import HupaiError
from .limits import address, error_reply
from .storage import dumps
from .tables import SPECTATOR, Listener, Table
from .wire import WireError, facts_to_wire

if TYPE_CHECKING:  # pragma: no cover
    from .app import Host
    from .ws import _Connection

__all__ = ["poll", "spectator_text", "watch_state", "watch_events", "table_hands", "replay_page", "serve_spectator"]

#: The key of the spectator's facts and view as JSON text among a table's published messages (cleared on every
#: change).
_VIEW = SPECTATOR - 1
#: Replay pages kept built (per table and finished-hand count): a page replays every hand through the engine.
_REPLAY_CACHE = 32


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


async def _finished(host: Host, table_id: Any) -> list[tuple[int, str, dict[str, Any]]]:
    """The table's finished hands as stored; a table the server does not know, in memory or stored, is
    ``not_found``."""
    if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
        raise WireError("not_found", "no such table")
    if table_id not in host.tables and table_id not in host.expired and table_id not in host.broken:
        if not await host.storage.load_tables(table_id):
            raise WireError("not_found", "no such table")
    return await host.storage.hands(table_id)


async def table_hands(request: Request, host: Host) -> Response:
    table_id = request.path_params["table_id"]
    hands = await _finished(host, table_id)
    return JSONResponse({"table": table_id, "hands": [
        {"hand": hand, "winners": result.get("winners", []), "payments": result.get("payments", []),
         "drawn": result.get("drawn", False)} for hand, _log, result in hands]})


async def replay_page(request: Request, host: Host) -> Response:
    """The viewer of every finished hand of the table (``/replay/{id}``)."""
    table_id = request.path_params["table_id"]
    hands = await _finished(host, table_id)
    if not hands:
        return HTMLResponse("<!doctype html><meta charset=utf-8><title>hupai replay</title>"
                            "<p>No hand of this table has finished yet: a hand in play is not replayable.</p>",
                            status_code=404)
    cache: dict[tuple[str, int], str] = host.replays
    key = (table_id, len(hands))
    page = cache.get(key)
    if page is None:
        from ..viewer import replay_html

        logs = [log for _hand, log, _result in hands]
        try:  # replaying every hand through the engine: off the event loop
            page = await asyncio.to_thread(replay_html, logs, f"hupai replay: table {table_id}")
        except HupaiError as error:  # a stored log the engine refuses (tampered): the operator's to repair
            raise WireError("broken", f"a stored hand of this table cannot be replayed: {str(error)[:200]}") from None
        while len(cache) >= _REPLAY_CACHE:
            del cache[next(iter(cache))]
        cache[key] = page
    return HTMLResponse(page)


async def serve_spectator(connection: _Connection, table: Table) -> None:
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
