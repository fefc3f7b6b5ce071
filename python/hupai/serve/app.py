"""The ASGI application (Starlette): HTTP endpoints, the WebSocket, the static browser table.

Endpoints (JSON; a seat's token goes in ``Authorization: Bearer <token>``, never in a URL, where it would be
logged; over the WebSocket it is the first message's):

- ``GET /api/rules``: every rule system, with its seat count, default options, and whether the engine can
  host it yet (``playable``: its family has an engine flow);
- ``GET /api/tables``, ``POST /api/tables`` (create: ``rules``, ``options``, ``bots``, ``bot``, ``think_ms``,
  ``hands``, ``claim_seconds``, ``turn_seconds``, ``bank_seconds``, ``seed``), ``GET /api/tables/{id}``:
  public table facts only;
- ``POST /api/tables/{id}/join`` (``{"seat": n}`` or ``{}``): a free human seat and its secret token;
- ``GET /api/tables/{id}/state?after=V&wait=S`` (the poll: the seat's state once its ``version`` passes V,
  waiting at most S seconds), ``POST /api/tables/{id}/action`` (``{"decision": d, "action": {...}}``),
  ``POST /api/tables/{id}/next``, ``POST /api/tables/{id}/back`` (take the seat back from the server's bot),
  ``GET /api/tables/{id}/events?since=K`` (the seat's public event stream of the hand from event K on,
  :meth:`hupai.Game.events_for`; every state message says ``event_count``);
- ``WS /api/ws`` (:mod:`.ws`): ``{"type": "hello", "table": id, "token": t}`` first, then ``action`` / ``next``
  / ``back`` / ``ping`` / ``events`` (``{"type": "events", "since": K}``) messages; the server pushes the
  seat's ``state`` after every stored change (not one a bot's move with no think time supersedes at once) and
  answers ``ack`` / ``events`` / ``error``;
- ``/`` and ``/t/{id}``: the browser table (a seat link: ``/t/{id}#seat=..&token=..``, the token in the
  fragment, which the browser never sends); ``/watch/{id}``: the same page watching the table;
- spectators and replays (:mod:`.watch`): ``GET /api/tables/{id}/watch`` (``/watch/events?since=K``), the
  WebSocket hello ``{"type": "hello", "table": id, "watch": true}``, ``GET /api/tables/{id}/hands``,
  ``/replay/{id}`` (the finished hands in the replay viewer).

Every refusal is ``{"type": "error", "code": ..., "message": ...}`` and changes nothing. Bodies and
messages are limited to ``max_message`` bytes; each client address (HTTP, and the WebSocket hello) and each
connection (WebSocket) has a token-bucket rate limit; connections and tables per address are capped
(:mod:`.limits`); idle tables expire (:meth:`Host.sweep`).
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import secrets
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .. import rules as rules_module
from ..errors import HupaiError, missing_extra
from .cluster import Cluster
from .host import Settings
from .limits import AddressLimits, Bucket, SocketGuard, address, error_reply, guarded_protocol
from .relay import forward_http
from .storage import Database, PostgresDatabase, Storage, check_database, is_storage_fault, open_database
from .tables import Table, parse_config, playable
from .watch import Replays, poll, replay_hand, replay_page, table_hands, watch_events, watch_state
from .wire import WireError, house_rules, pattern_names, tile_faces
from .ws import websocket_endpoint

__all__ = ["Settings", "Host", "create_app"]

log = logging.getLogger("hupai.serve")
STATIC = Path(__file__).parent / "static"

_STATUS = {"malformed": 400, "binary": 400, "forbidden": 403, "not_found": 404, "expired": 410, "too_large": 413,
           "rate_limited": 429, "connections": 429, "too_many_tables": 429, "stale": 409, "illegal": 409,
           "out_of_turn": 409, "full": 409, "taken": 409, "replaced": 409, "limit": 503, "unavailable": 503,
           "broken": 503, "spectators": 429}

class Host:
    """The tables of one server process and their storage (kept on ``app.state.host``)."""

    def __init__(self, storage: Storage, settings: Settings, cluster: Cluster | None = None) -> None:
        self.storage = storage
        self.cluster = cluster  # None: this process alone serves the database's tables
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}  # table id -> why it could not be restored (left out of play)
        self.buckets: dict[str, Bucket] = {}
        self.limits = AddressLimits(settings, self._live)
        self.expired: dict[str, None] = {}  # the latest expired ids (oldest first), to answer "expired"
        self.replays = Replays()  # finished hands' replays, built on demand (.watch)
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Restore every stored table. One that cannot be restored (a damaged row, a tampered snapshot or
        action row, rules this build does not know) is logged in one line, listed as broken and left out of
        play; the others are served. A storage that cannot be read at all stops the start."""
        await self.storage.init()
        if self.cluster is not None:  # tables are taken when asked for, or found orphaned (the first scan)
            await self.cluster.start(self)
            return
        for table_id in await self.storage.table_ids():
            try:
                (stored,) = await self.storage.load_tables(table_id)
                if stored.runtime.get("status") == "expired":
                    self._forget(stored.id)
                    continue
                table = await Table.restore(stored, self.storage)
            except Exception as error:
                self.broken[table_id] = f"{type(error).__name__}: {str(error)[:300]}"
                log.error("table %s could not be restored and is left out of play: %s", table_id,
                          self.broken[table_id])
                continue
            self.tables[table.id] = table
            self.adopt(table)
        log.info("hupai serve: %d table(s) restored, %d broken", len(self.tables), len(self.broken))

    def adopt(self, table: Table) -> None:
        """Serve ``table`` here: its absence timer from the settings, its driver started (unless ``drive`` is off)."""
        table.absent_seconds = self.settings.absent_seconds
        if self.settings.drive:
            table.start()
            if self._sweeper is None:
                self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(), name="hupai-sweep")

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for table in self.tables.values():
            await table.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        await self.storage.close()

    async def drop(self, table_id: str) -> None:
        """Stop serving the table here (this process lost its lock): its connections are told it moved."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            await table.stop()
            table.moved()

    # -- expiry ----------------------------------------------------------------------------------------------
    def _live(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and table.status not in ("match_over", "expired")

    def _forget(self, table_id: str) -> None:
        self.expired[table_id] = None
        if len(self.expired) > 10_000:
            del self.expired[next(iter(self.expired))]

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception as error:  # noqa: BLE001  (the storage, say: the next sweep tries again)
                log.warning("hupai serve: the expiry sweep failed: %s", error)

    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire the tables idle past ``idle_minutes`` (no act of a human seat) and the tables without a human
        seat older than ``bot_table_minutes``: each is stored as expired, stopped and dropped from memory.
        Returns their ids."""
        now = time.monotonic() if now is None else now
        idle, bot_life = self.settings.idle_minutes * 60, self.settings.bot_table_minutes * 60
        done = []
        for table in list(self.tables.values()):
            if now - table.active_at < idle and (table.human_seats() or now - table.born < bot_life):
                continue
            try:
                await table.expire()
            except Exception as error:  # noqa: BLE001  (not stored: it stays, the next sweep tries again)
                log.warning("table %s: could not be stored as expired: %s", table.id, error)
                continue
            del self.tables[table.id]
            if self.cluster is not None:
                await self.cluster.release(table.id)
            self._forget(table.id)
            log.info("table %s: expired", table.id)
            done.append(table.id)
        return done

    def bucket(self, client: str) -> Bucket:
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) > 10_000:  # forget idle addresses rather than grow without bound
                self.buckets.clear()
            bucket = self.buckets[client] = Bucket(self.settings.http_rate, self.settings.http_burst)
        return bucket

    async def create(self, data: Any, address: str = "?") -> Table:
        if len(self.tables) >= self.settings.max_tables:
            raise WireError("limit", "the server holds as many tables as it may")
        config, rules, seed = parse_config(data)
        bot_only = len(config.bots) == rules.num_players
        self.limits.check_create(address, bot_only)
        table_id = secrets.token_urlsafe(9)
        if self.cluster is not None:
            await self.cluster.claim_new(table_id)
        try:
            table = await Table.create(table_id, config, rules, seed, self.storage)
        except BaseException:
            if self.cluster is not None:
                await self.cluster.release(table_id)
            raise
        self.tables[table_id] = table
        self.limits.created_table(address, table_id, bot_only)
        self.adopt(table)
        return table

    def table(self, table_id: Any) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            if table_id in self.expired:
                raise WireError("expired", "this table expired (nothing happened at it for a while)")
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


def _refusal(error: WireError, request: Request | None = None) -> Response:
    """The refusal as JSON for the API, and as a page for a browser asking for one of the pages."""
    status = _STATUS.get(error.code, 400)
    if request is not None and _browser(request):
        return _error_page(status, str(error))
    return _reply(error_reply(error.code, str(error)), status)


def _browser(request: Request) -> bool:
    """A browser's navigation to a page (not the API, which answers JSON whatever the client accepts)."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


def _error_page(status: int, message: str) -> HTMLResponse:
    text = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return HTMLResponse(f"<!doctype html><meta charset=utf-8><title>hupai: {status}</title>"
                        f"<p>{text}</p><p><a href=\"/\">Back to the tables</a></p>", status_code=status)


async def _not_found(request: Request, error: Exception) -> Response:
    """An unknown path (or method): a page for a browser, the API's error object for anyone else."""
    status = getattr(error, "status_code", 404)
    code, message = (("not_found", "no such page") if status == 404 else
                     ("malformed", f"{request.method} is not allowed here") if status == 405 else
                     ("malformed", str(getattr(error, "detail", "bad request"))))
    if _browser(request):
        return _error_page(status, message)
    return _reply(error_reply(code, message), status)


async def _body(request: Request, limit: int) -> Any:
    """The request's JSON body, read no further than ``limit`` bytes."""
    raw = await _raw_body(request, limit)
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise WireError("malformed", "the body is not JSON") from None


async def _raw_body(request: Request, limit: int) -> bytes:
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise WireError("too_large", f"a request body may hold at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _seat(request: Request, table: Table) -> int:
    header = request.headers.get("authorization", "")
    token = header[7:] if header.startswith("Bearer ") else None
    seat = table.seat_for(token)
    if seat is None:
        raise WireError("forbidden", "this token opens no seat at this table")
    table.seen(seat)
    return seat


def _host(request: Request | WebSocket) -> Host:
    host: Host = request.app.state.host
    return host


def _endpoint(handler: Any, forward: bool = True) -> Any:
    """Rate limit, then run ``handler``; refusals become error replies. In a cluster, a request for a table
    another process runs is forwarded there (``forward=False``: what any process reads from the storage)."""
    async def wrapped(request: Request) -> Response:
        host = _host(request)
        peer = host.cluster is not None and host.cluster.peer(request)  # charged where the client came in
        bucket = host.bucket(address(request))
        if not peer and not bucket.take():
            return _refusal(WireError("rate_limited", "too many requests: slow down"), request)
        try:
            if forward and host.cluster is not None and "table_id" in request.path_params:
                owner = await host.cluster.where(request.path_params["table_id"], peer)
                if owner is not None:  # another process runs the table: it answers
                    return await forward_http(host.cluster, request, owner,
                                              await _raw_body(request, host.settings.max_message))
            response: Response = await handler(request, host)
            if handler is _action:
                bucket.refund()
            return response
        except WireError as error:
            return _refusal(error, request)
        except Exception as error:  # a storage outage, say: the table was put back as stored, nothing acknowledged
            log.warning("%s %s failed: %s: %s", request.method, request.url.path, type(error).__name__,
                        str(error)[:200], exc_info=not is_storage_fault(error))
            return _refusal(WireError("unavailable", "the server could not store the change: try again"), request)
    return wrapped


async def _rules(request: Request, host: Host) -> Response:
    out = []
    for name in rules_module.names():
        rules = rules_module.get(name)
        out.append({"name": name, "num_players": rules.num_players, "family": rules.family,
                    "playable": playable(rules), "options": rules.options_dict(), "faces": tile_faces(rules),
                    "house_rules": house_rules(rules)})
    return _reply({"rules": out})


async def _list(request: Request, host: Host) -> Response:
    tables = [t.public_info() for t in list(host.tables.values())[-200:]] + host.broken_info()[-200:]
    if host.cluster is not None and not host.cluster.peer(request):  # and those the other processes run
        here = {table["id"] for table in tables}
        tables += [table for table in await host.cluster.peer_tables(address(request)) if table["id"] not in here]
    return _reply({"tables": tables})


async def _create(request: Request, host: Host) -> Response:
    table = await host.create(await _body(request, host.settings.max_message), address(request))
    return _reply(table.public_info(), 201)


async def _info(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    return _reply({**table.public_info(), "faces": tile_faces(table.rules), "patterns": pattern_names(table.rules),
                   "pattern_unit": table.rules.pattern_unit})


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
    await poll(request, host, table, seat)
    return Response(await table.message_text(seat), media_type="application/json")


async def _action(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    seat = _seat(request, table)
    data = await _body(request, host.settings.max_message)
    if not isinstance(data, dict):
        raise WireError("malformed", "an action request is a JSON object")
    seq = await table.act(seat, data.get("decision"), data.get("action"))
    return _reply({"type": "ack", "seq": seq, "hand": table.hand})


async def _events(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    seat = _seat(request, table)
    try:
        since = int(request.query_params.get("since", "0"))
    except ValueError:
        raise WireError("malformed", "since is an int: the number of events already read") from None
    return _reply(await table.events(seat, since))


async def _next(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    seat = _seat(request, table)
    await table.next_hand(seat)
    return _reply({"type": "ok"})


async def _back(request: Request, host: Host) -> Response:
    table = host.table(request.path_params["table_id"])
    await table.back(_seat(request, table))
    return _reply({"type": "ok"})


async def _index(request: Request) -> Response:
    """The browser table: the lobby at ``/``, a table at ``/t/{id}`` (a seat link adds ``#seat=..&token=..``:
    the fragment never leaves the browser, so the token is in no request line and no log), the same page
    watching a table at ``/watch/{id}``."""
    return FileResponse(STATIC / "index.html")


def create_app(db: str | Database = "sqlite:///hupai.db", settings: Settings | None = None) -> Starlette:
    """The server as an ASGI app; its tables are stored in ``db`` (a URL, see :func:`.storage.open_database`,
    or a :class:`.storage.Database` itself: the tests' fault-injecting one)."""
    settings = settings or Settings()
    database = open_database(db) if isinstance(db, str) else db  # an unknown URL is refused now

    cluster = None
    if settings.cluster:
        if not isinstance(database, PostgresDatabase):
            raise HupaiError("several server processes (--cluster) share a PostgreSQL database, not SQLite "
                             "(which serves one process)")
        cluster = Cluster(database.url, settings.advertise, settings.scan_seconds)
    # Raw connections per address (.limits.SocketGuard): used by run(), which serves the app with uvicorn.
    sockets = SocketGuard(settings.max_sockets, settings.header_seconds)
    if cluster is not None:
        cluster.on_peer = sockets.trust  # a peer relays many clients: its connections are not capped

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        host = Host(Storage(database, settings.snapshot_every), settings, cluster)
        await host.start()
        app.state.host = host
        try:
            yield
        finally:
            await host.stop()

    routes = [
        Route("/", _index),
        Route("/t/{table_id}", _index),
        Route("/watch/{table_id}", _index),
        Route("/replay/{table_id}", _endpoint(replay_page, forward=False)),
        Route("/replay/{table_id}/hands/{hand}", _endpoint(replay_hand, forward=False)),
        Route("/api/rules", _endpoint(_rules)),
        Route("/api/tables", _endpoint(_list), methods=["GET"]),
        Route("/api/tables", _endpoint(_create), methods=["POST"]),
        Route("/api/tables/{table_id}", _endpoint(_info)),
        Route("/api/tables/{table_id}/join", _endpoint(_join), methods=["POST"]),
        Route("/api/tables/{table_id}/state", _endpoint(_state)),
        Route("/api/tables/{table_id}/action", _endpoint(_action), methods=["POST"]),
        Route("/api/tables/{table_id}/next", _endpoint(_next), methods=["POST"]),
        Route("/api/tables/{table_id}/events", _endpoint(_events)),
        Route("/api/tables/{table_id}/back", _endpoint(_back), methods=["POST"]),
        Route("/api/tables/{table_id}/watch", _endpoint(watch_state)),
        Route("/api/tables/{table_id}/watch/events", _endpoint(watch_events)),
        Route("/api/tables/{table_id}/hands", _endpoint(table_hands, forward=False)),
        WebSocketRoute("/api/ws", websocket_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: _not_found})
    app.state.sockets = sockets
    return app


def run(db: str, host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None) -> None:
    """Serve until interrupted (``hupai serve``). What would stop the start (a database that cannot be reached, a
    port in use) is found before anything is served and raised as one :class:`HupaiError` saying what to do."""
    try:
        import uvicorn
    except ImportError as error:
        raise missing_extra("hupai serve (uvicorn)", "server") from error
    settings = settings or Settings()
    if settings.cluster and not settings.advertise:
        if host in ("0.0.0.0", "::", ""):
            raise HupaiError("--cluster on every interface needs --advertise http://ADDRESS:PORT (the address "
                             "the other processes reach this one at)")
        settings = replace(settings, advertise=f"http://{host}:{port}")
    app = create_app(db, settings)  # a URL of no known kind is refused here
    if isinstance(db, str):
        asyncio.run(check_database(db))
    listening = _listen(host, port)
    guard: SocketGuard = app.state.sockets
    # No per-message compression: a state message is ~2 KB and compressing each one cost the server a fifth
    # of its time under load (bench/serve_load.py). limit_concurrency: past it uvicorn answers 503 rather than
    # run out of file descriptors.
    config = uvicorn.Config(guard.app(app), ws_max_size=settings.max_message * 4, ws_per_message_deflate=False,
                            log_level="info", timeout_keep_alive=5, limit_concurrency=_file_budget())
    config.load()
    config.http_protocol_class = guarded_protocol(config.http_protocol_class, guard)
    server = uvicorn.Server(config)
    with listening:
        server.run(sockets=[listening])
    if not server.started:
        raise HupaiError("the server stopped while starting: see the log above")


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a port in use is one clear error, not a server half started."""
    try:
        return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET,
                                    backlog=2048)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise HupaiError(f"port {port} on {host} is in use (another hupai serve?): stop that server or choose "
                             "another port with --port") from None
        if error.errno == errno.EACCES:
            raise HupaiError(f"port {port} on {host} needs privileges this user lacks: choose a port above 1023 "
                             "with --port (or put a reverse proxy in front)") from None
        raise HupaiError(f"cannot listen on {host}:{port}: {error.strerror or error}: check --host and "
                         "--port") from None


def _file_budget() -> int:
    """How many connections the process may hold: its file-descriptor limit raised to the hard limit where the
    system allows, less a margin for the database and the log."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 65_536 if hard == resource.RLIM_INFINITY else min(hard, 65_536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    except (ImportError, ValueError, OSError):  # no resource module (Windows), or not allowed
        return 1_000
    return max(100, min(soft, 65_536) - 64)
