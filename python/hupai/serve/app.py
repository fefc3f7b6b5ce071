"""The ASGI application (Starlette): HTTP endpoints, the WebSocket, the static browser table.

Endpoints (JSON; a seat's token goes in ``Authorization: Bearer <token>``, never in a URL, where it would be
logged; over the WebSocket it is the first message's):

- ``GET /api/rules``: every rule system, with its seat count, default options, and whether the engine can
  host it yet (``playable``: its family has an engine flow);
- ``GET /api/tables``, ``POST /api/tables`` (create: ``rules``, ``options``, ``bots``, ``bot``, ``think_ms``,
  ``hands``, ``claim_seconds``, ``seed``), ``GET /api/tables/{id}``: public table facts only;
- ``POST /api/tables/{id}/join`` (``{"seat": n}`` or ``{}``): a free human seat and its secret token;
- ``GET /api/tables/{id}/state?after=V&wait=S`` (the poll: the seat's state once its ``version`` passes V,
  waiting at most S seconds), ``POST /api/tables/{id}/action`` (``{"decision": d, "action": {...}}``),
  ``POST /api/tables/{id}/next``;
- ``WS /api/ws``: ``{"type": "hello", "table": id, "token": t}`` first, then ``action`` / ``next`` / ``ping``
  messages; the server pushes the seat's ``state`` after every stored change and answers ``ack`` / ``error``.

Every refusal is ``{"type": "error", "code": ..., "message": ...}`` and changes nothing. Bodies and
messages are limited to ``max_message`` bytes; each client address (HTTP) and each connection (WebSocket)
has a token-bucket rate limit.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import rules as rules_module
from ..errors import HupaiError
from .storage import Database, Storage, is_storage_fault, open_database
from .tables import Listener, Table, parse_config, playable
from .wire import WireError, tile_faces

__all__ = ["Settings", "Host", "create_app"]

log = logging.getLogger("hupai.serve")
STATIC = Path(__file__).parent / "static"

_STATUS = {"malformed": 400, "forbidden": 403, "not_found": 404, "too_large": 413, "rate_limited": 429,
           "stale": 409, "illegal": 409, "out_of_turn": 409, "full": 409, "taken": 409, "limit": 503,
           "unavailable": 503, "broken": 503}


@dataclass(frozen=True)
class Settings:
    max_message: int = 4096       # bytes of one HTTP body or WebSocket message
    http_rate: float = 50.0       # requests per second per client address ...
    http_burst: float = 100.0     # ... with this burst
    ws_rate: float = 20.0         # messages per second per WebSocket ...
    ws_burst: float = 40.0
    max_tables: int = 20_000
    hello_seconds: float = 10.0   # a WebSocket must say hello within this time
    max_wait: float = 25.0        # longest HTTP poll
    drive: bool = True            # False: bots and timers stay still (to inspect a stored server)
    snapshot_every: int = 32      # a table stores its hand's snapshot every this many actions (and at its end)


class Bucket:
    """A token bucket: ``take()`` is False once the rate is exceeded beyond the burst."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, time.monotonic()

    def refund(self) -> None:
        """Give back the token of an accepted action: the game itself bounds how fast those can come (each
        answers a new decision), so only refused messages, polls and pings use up the budget."""
        self.tokens = min(self.burst, self.tokens + 1)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


class Host:
    """The tables of one server process and their storage (kept on ``app.state.host``)."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}  # table id -> why it could not be restored (left out of play)
        self.buckets: dict[str, Bucket] = {}

    async def start(self) -> None:
        """Restore every stored table. One that cannot be restored (a damaged row, a tampered snapshot or
        action row, rules this build does not know) is logged in one line, listed as broken and left out of
        play; the others are served. A storage that cannot be read at all stops the start."""
        await self.storage.init()
        for table_id in await self.storage.table_ids():
            try:
                (stored,) = await self.storage.load_tables(table_id)
                table = await Table.restore(stored, self.storage)
            except Exception as error:
                self.broken[table_id] = f"{type(error).__name__}: {str(error)[:300]}"
                log.error("table %s could not be restored and is left out of play: %s", table_id,
                          self.broken[table_id])
                continue
            self.tables[table.id] = table
            if self.settings.drive:
                table.start()
        log.info("hupai serve: %d table(s) restored, %d broken", len(self.tables), len(self.broken))

    async def stop(self) -> None:
        for table in self.tables.values():
            await table.stop()
        await self.storage.close()

    def bucket(self, client: str) -> Bucket:
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) > 10_000:  # forget idle addresses rather than grow without bound
                self.buckets.clear()
            bucket = self.buckets[client] = Bucket(self.settings.http_rate, self.settings.http_burst)
        return bucket

    async def create(self, data: Any) -> Table:
        if len(self.tables) >= self.settings.max_tables:
            raise WireError("limit", "the server holds as many tables as it may")
        config, rules, seed = parse_config(data)
        table_id = secrets.token_urlsafe(9)
        table = await Table.create(table_id, config, rules, seed, self.storage)
        self.tables[table_id] = table
        table.start()
        return table

    def table(self, table_id: Any) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            if isinstance(table_id, str) and table_id in self.broken:
                raise WireError("broken", "this table's stored state could not be restored: it is out of play "
                                          "until the server's operator repairs it")
            raise WireError("not_found", "no such table")
        return table

    def broken_info(self) -> list[dict[str, Any]]:
        """The broken tables as the lobby lists them (the reason stays in the server's log)."""
        return [{"id": table_id, "status": "broken"} for table_id in self.broken]


def _reply(data: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def _refusal(error: WireError) -> JSONResponse:
    return _reply(_error(error.code, str(error)), _STATUS.get(error.code, 400))


async def _body(request: Request, limit: int) -> Any:
    """The request's JSON body, read no further than ``limit`` bytes."""
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise WireError("too_large", f"a request body may hold at most {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise WireError("malformed", "the body is not JSON") from None


def _seat(request: Request, table: Table) -> int:
    header = request.headers.get("authorization", "")
    token = header[7:] if header.startswith("Bearer ") else None
    seat = table.seat_for(token)
    if seat is None:
        raise WireError("forbidden", "this token opens no seat at this table")
    return seat


def _host(request: Request | WebSocket) -> Host:
    host: Host = request.app.state.host
    return host


def _endpoint(handler: Any) -> Any:
    """Rate limit, then run ``handler``; refusals become error replies."""
    async def wrapped(request: Request) -> Response:
        host = _host(request)
        bucket = host.bucket(request.client.host if request.client else "?")
        if not bucket.take():
            return _refusal(WireError("rate_limited", "too many requests: slow down"))
        try:
            response: Response = await handler(request, host)
            if handler is _action:
                bucket.refund()
            return response
        except WireError as error:
            return _refusal(error)
        except Exception as error:  # a storage outage, say: the table was put back as stored, nothing acknowledged
            log.warning("%s %s failed: %s: %s", request.method, request.url.path, type(error).__name__,
                        str(error)[:200], exc_info=not is_storage_fault(error))
            return _reply(_error("unavailable", "the server could not store the change: try again"), 503)
    return wrapped


async def _rules(request: Request, host: Host) -> Response:
    out = []
    for name in rules_module.names():
        rules = rules_module.get(name)
        out.append({"name": name, "num_players": rules.num_players, "family": rules.family,
                    "playable": playable(rules), "options": rules.options_dict(), "faces": tile_faces(rules)})
    return _reply({"rules": out})


async def _list(request: Request, host: Host) -> Response:
    return _reply({"tables": [t.public_info() for t in list(host.tables.values())[-200:]] + host.broken_info()[-200:]})


async def _create(request: Request, host: Host) -> Response:
    table = await host.create(await _body(request, host.settings.max_message))
    return _reply(table.public_info(), 201)


async def _info(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    return _reply({**table.public_info(), "faces": tile_faces(table.rules)})


async def _join(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    data = await _body(request, host.settings.max_message)
    seat = data.get("seat") if isinstance(data, dict) else None
    if seat is not None and type(seat) is not int:
        raise WireError("malformed", "seat must be an int")
    seat, token = await table.join(seat)
    return _reply({"table": table.id, "seat": seat, "token": token}, 201)


async def _state(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    seat = _seat(request, table)
    try:
        after = int(request.query_params.get("after", "-1"))
        wait = min(float(request.query_params.get("wait", "0")), host.settings.max_wait)
    except ValueError:
        raise WireError("malformed", "after is an int, wait a number of seconds") from None
    if table.version <= after and wait > 0:
        try:
            await asyncio.wait_for(table.changed.wait(), wait)
        except asyncio.TimeoutError:
            pass
    return Response(await table.message_text(seat), media_type="application/json")


async def _action(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    seat = _seat(request, table)
    data = await _body(request, host.settings.max_message)
    if not isinstance(data, dict):
        raise WireError("malformed", "an action request is a JSON object")
    seq = await table.act(seat, data.get("decision"), data.get("action"))
    return _reply({"type": "ack", "seq": seq, "hand": table.hand})


async def _next(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    seat = _seat(request, table)
    await table.next_hand(seat)
    return _reply({"type": "ok"})


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


class _Connection:
    """One WebSocket: its seat's listener, its rate limit, one sender at a time."""

    def __init__(self, websocket: WebSocket, host: Host) -> None:
        self.ws = websocket
        self.host = host
        self.bucket = Bucket(host.settings.ws_rate, host.settings.ws_burst)
        self.send_lock = asyncio.Lock()

    async def send(self, text: str) -> None:
        async with self.send_lock:
            await self.ws.send_text(text)

    async def receive(self) -> Any:
        """The next message as JSON, or a WireError saying why it is refused."""
        text = await self.ws.receive_text()
        if len(text) > self.host.settings.max_message:
            raise WireError("too_large", f"a message may hold at most {self.host.settings.max_message} bytes")
        if not self.bucket.take():
            raise WireError("rate_limited", "too many messages: slow down")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise WireError("malformed", "a message is a JSON object") from None
        if not isinstance(data, dict):
            raise WireError("malformed", "a message is a JSON object")
        return data

    async def hello(self) -> tuple[Table, int]:
        data = await asyncio.wait_for(self.receive(), self.host.settings.hello_seconds)
        if data.get("type") != "hello":
            raise WireError("malformed", "the first message is a hello with the table and the seat's token")
        table = self.host.table(data.get("table"))
        seat = table.seat_for(data.get("token"))
        if seat is None:
            raise WireError("forbidden", "this token opens no seat at this table")
        return table, seat

    async def follow(self, table: Table, listener: Listener) -> None:
        while True:
            await listener.event.wait()
            listener.event.clear()
            await self.send(await table.message_text(listener.seat))

    async def serve(self) -> None:
        try:
            table, seat = await self.hello()
        except (WireError, asyncio.TimeoutError) as error:
            why = error if isinstance(error, WireError) else WireError("malformed", "no hello in time")
            await self.send(json.dumps(_error(why.code, str(why))))
            await self.ws.close(code=1008)
            return
        listener = Listener(seat)
        listener.event.set()
        table.listeners.add(listener)
        follower = asyncio.get_running_loop().create_task(self.follow(table, listener))
        try:
            while True:
                try:
                    data = await self.receive()
                    reply = await self.handle(table, seat, data)
                    if reply["type"] == "ack":
                        self.bucket.refund()
                except WireError as error:
                    reply = _error(error.code, str(error))
                    if error.code == "too_large":
                        await self.send(json.dumps(reply))
                        await self.ws.close(code=1009)
                        return
                except (WebSocketDisconnect, asyncio.CancelledError):
                    raise
                except Exception as error:  # as over HTTP: nothing was stored, nothing acknowledged
                    log.warning("table %s: a message failed: %s: %s", table.id, type(error).__name__,
                                str(error)[:200], exc_info=not is_storage_fault(error))
                    reply = _error("unavailable", "the server could not store the change: try again")
                await self.send(json.dumps(reply))
        finally:
            table.listeners.discard(listener)
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
        elif kind == "ping":
            reply = {"type": "pong"}
        else:
            raise WireError("malformed", f"unknown message type {str(kind)[:20]!r}")
        if isinstance(data.get("id"), (int, str)):
            reply["id"] = data["id"]
        return reply


async def _websocket(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        await _Connection(websocket, websocket.app.state.host).serve()
    except WebSocketDisconnect:
        pass


def create_app(db: str | Database = "sqlite:///hupai.db", settings: Settings | None = None) -> Starlette:
    """The server as an ASGI app; its tables are stored in ``db`` (a URL, see :func:`.storage.open_database`,
    or a :class:`.storage.Database` itself: the tests' fault-injecting one)."""
    settings = settings or Settings()
    database = open_database(db) if isinstance(db, str) else db  # an unknown URL is refused now

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        host = Host(Storage(database, settings.snapshot_every), settings)
        await host.start()
        app.state.host = host
        try:
            yield
        finally:
            await host.stop()

    routes = [
        Route("/", _index),
        Route("/api/rules", _endpoint(_rules)),
        Route("/api/tables", _endpoint(_list), methods=["GET"]),
        Route("/api/tables", _endpoint(_create), methods=["POST"]),
        Route("/api/tables/{table_id}", _endpoint(_info)),
        Route("/api/tables/{table_id}/join", _endpoint(_join), methods=["POST"]),
        Route("/api/tables/{table_id}/state", _endpoint(_state)),
        Route("/api/tables/{table_id}/action", _endpoint(_action), methods=["POST"]),
        Route("/api/tables/{table_id}/next", _endpoint(_next), methods=["POST"]),
        WebSocketRoute("/api/ws", _websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def run(db: str, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve until interrupted (``hupai serve``)."""
    try:
        import uvicorn
    except ImportError as error:
        raise HupaiError("hupai serve needs the server extra: pip install 'hupai[server]'") from error
    settings = Settings()
    # No per-message compression: a state message is ~2 KB and compressing each one cost the server a fifth
    # of its time under load (bench/serve_load.py).
    uvicorn.run(create_app(db, settings), host=host, port=port, ws_max_size=settings.max_message * 4,
                ws_per_message_deflate=False, log_level="info")
