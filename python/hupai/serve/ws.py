"""The WebSocket of the reference server (``WS /api/ws``): a hello with the table and the seat's token first, then
``action`` / ``next`` / ``back`` / ``ping``; the server pushes the seat's ``state`` after every stored change
(its newest: one that a bot's move with no think time supersedes at once is skipped, see ``Table.push``).
A spectator's hello says ``"watch": true`` and no token (:mod:`.watch`).

Every frame counts against the connection's rate limit (binary ones are refused: ``binary``); the hello also
uses the address's HTTP budget (token guesses cost the same over both); the connections one address holds at
once are capped (``connections``). The latest connection to say hello for a seat takes it over: the older ones
get ``{"type": "error", "code": "replaced"}`` and are closed (a seat link opened on another device).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Protocol

from starlette.websockets import WebSocket, WebSocketDisconnect

from .cluster import RETRY_SECONDS, Cluster
from .host import Host
from .limits import Bucket, address, error_reply
from .relay import MOVED_CLOSE, relay_ws
from .storage import is_storage_fault
from .tables import SPECTATOR, Listener, Table
from .watch import serve_spectator, spectator_text
from .wire import WireError

__all__ = ["websocket_endpoint"]

log = logging.getLogger("hupai.serve")


class ClusterHost(Host, Protocol):
    """The host as a connection uses it: with the cluster it may belong to (None: alone)."""

    cluster: Cluster | None


class _Connection:
    """One WebSocket: its seat's listener, its rate limit, one sender at a time."""

    def __init__(self, websocket: WebSocket, host: ClusterHost) -> None:
        self.ws = websocket
        self.host = host
        self.bucket = Bucket(host.settings.ws_rate, host.settings.ws_burst)
        self.send_lock = asyncio.Lock()
        self.closed = False
        # Relayed by another process of the cluster, which charged the client's budget already (see .cluster).
        self.peer = host.cluster is not None and host.cluster.peer(websocket)
        self.address = address(websocket)

    async def send(self, text: str) -> None:
        async with self.send_lock:
            if not self.closed:  # the follower may have closed it (replaced) while a reply was being made
                await self.ws.send_text(text)

    async def close(self, code: int) -> None:
        async with self.send_lock:
            if not self.closed:
                self.closed = True
                await self.ws.close(code=code)

    async def receive(self) -> Any:
        """The next message as JSON, or a WireError saying why it is refused. Every frame counts against the
        rate limit, binary ones included (they are refused: the protocol is JSON text)."""
        frame = await self.ws.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        if not self.bucket.take():
            raise WireError("rate_limited", "too many messages: slow down")
        text = frame.get("text")
        if text is None:
            raise WireError("binary", "messages are JSON text frames; a binary frame is refused")
        if len(text) > self.host.settings.max_message:
            raise WireError("too_large", f"a message may hold at most {self.host.settings.max_message} bytes")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise WireError("malformed", "a message is a JSON object") from None
        if not isinstance(data, dict):
            raise WireError("malformed", "a message is a JSON object")
        return data

    async def hello(self) -> tuple[Table, int | None] | None:
        """The hello: the table, and the seat its token opens (None: a spectator's hello, ``"watch": true``).
        None: another process of the cluster runs the table, and the connection was relayed there until it
        closed."""
        data = await asyncio.wait_for(self.receive(), self.host.settings.hello_seconds)
        if not self.peer and not self.host.bucket(self.address).take():  # hellos share the address's HTTP budget
            raise WireError("rate_limited", "too many requests: slow down")
        if data.get("type") != "hello":
            raise WireError("malformed", "the first message is a hello with the table and the seat's token")
        cluster = self.host.cluster
        deadline = asyncio.get_running_loop().time() + RETRY_SECONDS
        while cluster is not None:
            owner = await cluster.where(data.get("table"), self.peer)
            if owner is None:  # served here
                break
            if await relay_ws(cluster, self, data, owner):
                return None
            if asyncio.get_running_loop().time() > deadline:  # its owner died and still holds its lock
                raise WireError("unavailable", "the table's server process is not answering: try again")
            await asyncio.sleep(0.2)
        table = self.host.table(data.get("table"))
        if data.get("watch") is True and "token" not in data:
            return table, None
        seat = table.seat_for(data.get("token"))
        if seat is None:
            raise WireError("forbidden", "this token opens no seat at this table")
        return table, seat

    async def follow(self, table: Table, listener: Listener) -> None:
        sent = -1  # the version last pushed
        try:
            while True:
                await listener.event.wait()
                listener.event.clear()
                if listener.replaced:
                    await self.send(json.dumps(error_reply("replaced", "this seat was opened on another connection")))
                    await self.close(4000)
                    return
                if listener.moved:
                    await self.send(json.dumps(error_reply("moved", "the table moved to another server process: "
                                                                    "connect again")))
                    await self.close(MOVED_CLOSE)
                    return
                if listener.seat == SPECTATOR:
                    await self.send(await spectator_text(table))
                    continue
                sent, text = await table.push(listener.seat, sent)
                if text is not None:
                    await self.send(text)
        except (WebSocketDisconnect, RuntimeError, OSError):  # the socket went away meanwhile
            return

    async def serve(self) -> None:
        try:
            opened = await self.hello()
            if opened is None:  # relayed to the table's process, and over
                return
            table, seat = opened
        except (WireError, asyncio.TimeoutError) as error:
            why = error if isinstance(error, WireError) else WireError("malformed", "no hello in time")
            await self.send(json.dumps(error_reply(why.code, str(why))))
            await self.close(1008)
            return
        if seat is None:
            await serve_spectator(self, table)
            return
        listener = table.listener(seat)  # the seat's older connections are told they were replaced
        table.attach(seat)
        follower = asyncio.get_running_loop().create_task(self.follow(table, listener))
        try:
            try:
                await table.back(seat)  # a hello takes the seat back from the server's bot
            except Exception as error:  # noqa: BLE001  (the storage: the seat stays on auto until it acts)
                log.warning("table %s: seat %d could not be taken back: %s", table.id, seat, error)
            while True:
                try:
                    data = await self.receive()
                    reply = await self.handle(table, seat, data)
                    if reply["type"] == "ack":
                        self.bucket.refund()
                except WireError as error:
                    reply = error_reply(error.code, str(error))
                    if error.code == "too_large":
                        await self.send(json.dumps(reply))
                        await self.close(1009)
                        return
                except (WebSocketDisconnect, asyncio.CancelledError):
                    raise
                except Exception as error:  # as over HTTP: nothing was stored, nothing acknowledged
                    log.warning("table %s: a message failed: %s: %s", table.id, type(error).__name__,
                                str(error)[:200], exc_info=not is_storage_fault(error))
                    reply = error_reply("unavailable", "the server could not store the change: try again")
                if listener.replaced or listener.moved:
                    return
                await self.send(json.dumps(reply))
        finally:
            table.listeners.discard(listener)
            table.detach(seat)
            follower.cancel()

    async def handle(self, table: Table, seat: int, data: dict[str, Any]) -> dict[str, Any]:
        kind = data.get("type")
        reply: dict[str, Any]
        if kind == "action":
            seq = await table.act(seat, data.get("decision"), data.get("action"))
            reply = {"type": "ack", "seq": seq, "hand": table.hand}
        elif kind == "next":
            await table.next_hand(seat)
            reply = {"type": "ok"}
        elif kind == "back":
            await table.back(seat)
            reply = {"type": "ok"}
        elif kind == "ping":
            table.seen(seat)
            reply = {"type": "pong"}
        elif kind == "events":
            reply = await table.events(seat, data.get("since", 0))
        else:
            raise WireError("malformed", f"unknown message type {str(kind)[:20]!r}")
        if isinstance(data.get("id"), (int, str)):
            reply["id"] = data["id"]
        return reply


async def websocket_endpoint(websocket: WebSocket) -> None:
    await websocket.accept()
    host: ClusterHost = websocket.app.state.host
    if host.cluster is not None:
        host.cluster.peer(websocket)  # a relayed connection counts against its client's address
    client = address(websocket)
    try:
        try:
            host.limits.connect(client)
        except WireError as error:
            await websocket.send_text(json.dumps(error_reply(error.code, str(error))))
            await websocket.close(code=1008)
            return
        try:
            await _Connection(websocket, host).serve()
        finally:
            host.limits.disconnect(client)
    except WebSocketDisconnect:
        pass
