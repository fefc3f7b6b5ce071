"""Several ``hupai serve`` processes over one PostgreSQL (``hupai serve --cluster``): who holds which table.

Each process keeps one connection of its own to PostgreSQL, the *lock connection*, and owns a table while it
holds that table's session-level advisory lock on it (``pg_try_advisory_lock``, a 64-bit key from the table
id). PostgreSQL releases every lock of a session the moment the session ends, so a process that dies
(``kill -9`` included) gives its tables up at once; a process cut off from the database loses its session too
(the lock connection sets ``idle_session_timeout``) and drops its tables when its own heartbeat on that
connection fails. The table's stored ``version`` stays the fence: a write from a process that lost the table
without knowing it yet fails its version check and is never acknowledged.

- **A request for a table.** The process that holds the table serves it. Another one tries to take the lock:
  if the table is nobody's (its owner died, or stopped), it loads it from storage and serves it from then on;
  if another live process holds it, the request is forwarded there (:mod:`.relay`: HTTP proxied, a WebSocket
  relayed frame by frame), so that every client of a table, whichever process it reached, is served by the
  one process that runs the table. Processes find each other in ``hupai_processes`` (the address each
  advertises, keyed by its lock connection's backend pid, which ``pg_locks`` names for each held lock).
- **Orphans.** Every ``scan_seconds`` each process looks for live tables (neither over nor expired) whose lock
  nobody holds, and takes them over: their bots, timers and next hands go on within a few seconds of their
  owner's death even if no client asks.
- **Peers.** A forwarded request carries the cluster's secret (a random value stored once in
  ``hupai_cluster``) and the client's address: the owner charges the limits to that client, not to the
  forwarding process, and never forwards a forwarded request again (no loops: it answers ``unavailable`` and the
  client tries again).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection

from ..errors import HupaiError, missing_extra
from .storage import SCHEMA_LOCK
from .wire import WireError

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host
    from .tables import Table

__all__ = ["Cluster", "table_key", "PEER_HEADER", "CLIENT_HEADER"]

log = logging.getLogger("hupai.serve")

PEER_HEADER = "x-hupai-peer"      # the cluster's secret: the request was forwarded by another process
CLIENT_HEADER = "x-hupai-client"  # ... for this client address
HEARTBEAT_TIMEOUT = 5.0  # seconds the lock connection may take to answer before the process drops its tables
SESSION_TIMEOUT = 15.0   # PostgreSQL ends a lock connection silent this long (a process cut off): its locks go
#                          (at least three heartbeats: every ``scan_seconds``)
RETRY_SECONDS = 8.0      # how long a request waits for a table whose owner just died to be free
LOAD_TRIES = 100         # reads of a table its previous owner is still writing (50 ms apart) before giving up
OWNER_SECONDS = 2.0      # how long a table's owner, once looked up, is forwarded to without asking again
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS hupai_processes (id TEXT PRIMARY KEY, address TEXT NOT NULL, "
    "backend_pid BIGINT NOT NULL, started BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hupai_cluster (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
_HELD = ("SELECT classid::bigint, objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted "
         "AND objsubid = 1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
_LIVE = ("SELECT id FROM hupai_tables WHERE runtime NOT LIKE '%\"status\":\"expired\"%' "
         "AND runtime NOT LIKE '%\"status\":\"match_over\"%' ORDER BY created")


def table_key(table_id: str) -> int:
    """The table's advisory lock key: 64 bits of its id's SHA-256, signed as PostgreSQL's bigint."""
    return int.from_bytes(hashlib.sha256(table_id.encode("utf-8", "surrogatepass")).digest()[:8], "big", signed=True)


def _halves(key: int) -> tuple[int, int]:
    """How ``pg_locks`` shows a bigint key: its high half as ``classid``, its low half as ``objid``."""
    unsigned = key & 0xFFFF_FFFF_FFFF_FFFF
    return unsigned >> 32, unsigned & 0xFFFF_FFFF


class Cluster:
    """This process's part in a cluster: its lock connection, the tables it holds, the peers it forwards to."""

    def __init__(self, url: str, advertise: str, scan_seconds: float = 1.0) -> None:
        if not advertise.startswith(("http://", "https://")):
            raise HupaiError(f"a cluster process advertises an http(s):// address its peers can reach, got "
                             f"{advertise!r}")
        try:  # refused now, before `hupai serve --cluster` starts serving
            import httpx  # noqa: F401  (a forwarded request)
            import psycopg  # noqa: F401  (the lock connection)
        except ImportError:
            raise missing_extra("hupai serve --cluster (psycopg 3, httpx)", "postgres") from None
        self.url = url
        self.advertise = advertise.rstrip("/")
        self.scan_seconds = scan_seconds
        self.id = secrets.token_hex(8)
        self.secret = ""
        self.owned: set[str] = set()  # the tables whose lock this process holds (once each)
        self._conn: Any = None
        self._host: Host | None = None
        self._loading: dict[str, asyncio.Future[bool]] = {}
        self._task: asyncio.Task[None] | None = None
        self._http: Any = None  # the forwarding client (httpx), made on first use
        self._owners: dict[str, tuple[str, float]] = {}  # table id -> (its owner's address, when looked up)
        self.on_peer: Callable[[str], None] | None = None  # told each address a peer's request came from
        # When the lock connection last answered: past ``2 * scan_seconds`` (a process paused, a loop held up),
        # the tables in memory may be another process's by now, so a request waits for the connection to answer
        # again before anything is read from memory (see :meth:`verify`).
        self._verified = 0.0
        self._verifying: asyncio.Future[None] | None = None

    # -- the lock connection ---------------------------------------------------------------------------------
    async def start(self, host: Host) -> None:
        self._host = host
        await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="hupai-cluster")

    async def _connect(self) -> None:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        try:
            timeout = max(SESSION_TIMEOUT, 3 * self.scan_seconds)
            await conn.execute(f"SET idle_session_timeout = '{int(timeout * 1000)}ms'")
        except psycopg.Error:  # before PostgreSQL 14: TCP keepalives alone end a lost session
            pass
        async with conn.transaction():  # under the storage's schema lock: processes starting together take turns
            await conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", SCHEMA_LOCK)
            for sql in SCHEMA:
                await conn.execute(sql)
        await conn.execute("INSERT INTO hupai_cluster (name, value) VALUES ('secret', %s) ON CONFLICT DO NOTHING",
                           (secrets.token_urlsafe(32),))
        row = await (await conn.execute("SELECT value FROM hupai_cluster WHERE name = 'secret'")).fetchone()
        assert row is not None  # inserted just before, by this process or another
        self.secret = str(row[0])
        # Rows of processes whose lock connection is gone (a pid PostgreSQL may reuse) are dropped first.
        await conn.execute("DELETE FROM hupai_processes WHERE id = %s OR backend_pid = pg_backend_pid() OR "
                           "backend_pid NOT IN (SELECT pid FROM pg_stat_activity)", (self.id,))
        await conn.execute("INSERT INTO hupai_processes (id, address, backend_pid, started) "
                           "VALUES (%s, %s, pg_backend_pid(), %s)", (self.id, self.advertise, int(time.time())))
        self._conn = conn
        self._verified = time.monotonic()
        log.info("hupai serve: cluster process %s at %s", self.id, self.advertise)

    async def stop(self) -> None:
        """Give every table up (the host has stopped them): the lock connection's end releases the locks."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await conn.execute("DELETE FROM hupai_processes WHERE id = %s", (self.id,))
            except Exception:  # noqa: BLE001, S110  (gone already: its row is dropped by the next process to start)
                pass
            await conn.close()
        self.owned.clear()
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self._conn is None:
            raise WireError("unavailable", "this server lost its database connection: try again")
        try:
            cursor = await asyncio.wait_for(self._conn.execute(sql, params or None), HEARTBEAT_TIMEOUT)
            return [tuple(row) for row in await cursor.fetchall()] if cursor.description else []
        except Exception as error:  # the database is away: refused as unavailable (the heartbeat drops all)
            if isinstance(error, WireError):
                raise
            raise WireError("unavailable", f"the cluster's database did not answer ({type(error).__name__}): "
                                           "try again") from error

    async def verify(self, always: bool = False) -> None:
        """Make sure this process still holds the locks of the tables in its memory before one is answered from
        it: if the lock connection has not answered for ``2 * scan_seconds`` (the process was paused, say with
        SIGSTOP, long enough for PostgreSQL to end its session and another process to take its tables), it is
        asked now, and if it is gone every table is dropped first (the request then goes where the table is).
        ``always``: ask even so (the watch's heartbeat); one question answers every caller waiting at once."""
        if not always and time.monotonic() - self._verified <= 2 * self.scan_seconds:
            return
        if self._verifying is None or self._verifying.done():
            self._verifying = asyncio.ensure_future(self._heartbeat())
        await asyncio.shield(self._verifying)

    async def _heartbeat(self) -> None:
        """One question on the lock connection: answered, this process holds its locks still; failed, it lost
        them all (:meth:`_lost`)."""
        try:
            await self._query("SELECT 1")
        except Exception as error:  # noqa: BLE001
            await self._lost(error)
        else:
            self._verified = time.monotonic()

    # -- owning tables ---------------------------------------------------------------------------------------
    async def claim_new(self, table_id: str) -> None:
        """Lock a new table's id before its row is written (no other process's scan ever sees it free)."""
        (got,) = (await self._query("SELECT pg_try_advisory_lock(%s)", (table_key(table_id),)))[0]
        if not got:  # a 64-bit clash with a held table: the caller draws another id
            raise WireError("unavailable", "the table id is held: try again")
        self.owned.add(table_id)

    async def release(self, table_id: str) -> None:
        """The host dropped the table (expired): another process may take it."""
        if table_id in self.owned:
            self.owned.discard(table_id)
            try:
                await self._query("SELECT pg_advisory_unlock(%s)", (table_key(table_id),))
            except Exception as error:  # noqa: BLE001  (the session is gone: so is the lock)
                log.warning("table %s: could not release its lock: %s", table_id, error)

    async def acquire(self, table_id: str) -> bool:
        """Whether the table is served here now: held already, or free and now taken over (loaded from storage
        and started). False: another process holds it. Raises ``not_found`` / ``expired`` / ``broken``."""
        host = self._host
        assert host is not None
        if table_id in host.tables:
            return True
        waiting = self._loading.get(table_id)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            result = await self._take(table_id)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: the waiters (if any) get it too
            raise
        else:
            future.set_result(result)
            return result
        finally:
            del self._loading[table_id]

    async def _take(self, table_id: str) -> bool:
        host = self._host
        assert host is not None
        if table_id not in self.owned:  # (one held but not in memory failed to load, or was dropped: load it)
            (got,) = (await self._query("SELECT pg_try_advisory_lock(%s)", (table_key(table_id),)))[0]
            if not got:
                return False
            self.owned.add(table_id)
        try:
            table = await self._load(table_id)
        except BaseException:
            await self.release(table_id)
            raise
        host.tables[table_id] = table
        host.adopt(table)
        log.warning("table %s: taken over by this process (version %d)", table_id, table.version)
        return True

    async def _load(self, table_id: str) -> Table:
        """The table as stored, read whole between two writes: its previous owner may still be writing for a
        moment (it has not noticed it lost the lock yet), so the row and the action rows are read again until
        the table's version is the same after the action rows as before them (every write bumps it)."""
        from .tables import Table

        host = self._host
        assert host is not None
        for _ in range(LOAD_TRIES):
            stored = await host.storage.load_tables(table_id)
            if not stored:
                raise WireError("not_found", "no such table")
            if stored[0].runtime.get("status") == "expired":
                raise WireError("expired", "this table expired (nothing happened at it for a while)")
            hand = stored[0].runtime.get("hand", 0) if isinstance(stored[0].runtime, dict) else 0
            rows = await host.storage.actions(table_id, hand)
            if await self._query("SELECT version FROM hupai_tables WHERE id = %s", (table_id,)) == \
                    [(stored[0].version,)]:
                break
            await asyncio.sleep(0.05)
        else:
            raise WireError("unavailable", "the table is still being written by the server process that had it: "
                                           "try again")
        try:
            return Table.rebuild(stored[0], rows, host.storage)
        except Exception as error:
            host.broken[table_id] = f"{type(error).__name__}: {str(error)[:300]}"
            log.error("table %s could not be restored and is left out of play: %s", table_id, host.broken[table_id])
            raise WireError("broken", "this table's stored state could not be restored: it is out of play until the "
                                      "server's operator repairs it") from None

    async def owner(self, table_id: str) -> str | None:
        """The address of the live process holding the table (None: nobody holds it now)."""
        high, low = _halves(table_key(table_id))
        rows = await self._query(
            "SELECT p.address FROM pg_locks l JOIN hupai_processes p ON p.backend_pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.classid::bigint = %s "
            "AND l.objid::bigint = %s AND p.id <> %s", (high, low, self.id))
        return str(rows[0][0]) if rows else None

    async def where(self, table_id: Any, forwarded: bool) -> str | None:
        """None: the table is served here (taken over if it was free); else the address to forward to. A table
        whose owner just died is waited for (its lock goes with its session) for up to ``RETRY_SECONDS``."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
            raise WireError("not_found", "no such table")
        host = self._host
        assert host is not None
        await self.verify()
        if table_id in host.tables:
            return None
        if table_id in host.broken:
            raise WireError("broken", "this table's stored state could not be restored: it is out of play until "
                                      "the server's operator repairs it")
        cached = self._owners.get(table_id)
        if cached is not None and time.monotonic() - cached[1] < OWNER_SECONDS and not forwarded:
            return cached[0]  # (a busy relayed table asks the database once in a while, not per request)
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            if await self.acquire(table_id):
                self._owners.pop(table_id, None)
                return None
            address = await self.owner(table_id)
            if address is not None:
                if forwarded:  # a peer thought this process held it: no second hop
                    raise WireError("unavailable", "the table is moving between server processes: try again")
                if len(self._owners) > 10_000:
                    self._owners.clear()
                self._owners[table_id] = (address, time.monotonic())
                return address
            if time.monotonic() > deadline:
                raise WireError("unavailable", "the table's server process is not answering: try again")
            await asyncio.sleep(0.1)

    # -- peers -----------------------------------------------------------------------------------------------
    def peer(self, connection: HTTPConnection) -> bool:
        """Whether the request (or WebSocket) was forwarded by a process of the cluster; if so its client
        address becomes the one the forwarder saw (limits count the client, not the forwarder)."""
        sent = connection.headers.get(PEER_HEADER)
        if not sent or not self.secret or not hmac.compare_digest(sent, self.secret):
            return False
        if connection.client is not None and self.on_peer is not None:
            self.on_peer(connection.client.host)
        client = connection.headers.get(CLIENT_HEADER, "?")[:64]
        connection.scope["client"] = (client, 0)
        return True

    def unreachable(self, table_id: str) -> None:
        """Forwarding the table's request failed: look its owner up again next time."""
        self._owners.pop(table_id, None)

    def peer_headers(self, client: str) -> dict[str, str]:
        return {PEER_HEADER: self.secret, CLIENT_HEADER: client}

    async def peer_tables(self, client: str) -> list[dict[str, Any]]:
        """The lobby's listing of every other live process of the cluster (each lists the tables it runs); a
        process that does not answer within two seconds is left out of this listing."""
        rows = await self._query("SELECT address FROM hupai_processes WHERE id <> %s AND backend_pid IN "
                                 "(SELECT pid FROM pg_stat_activity)", (self.id,))

        async def listing(owner: str) -> list[dict[str, Any]]:
            try:
                reply = await self.http().get(f"{owner}/api/tables", headers=self.peer_headers(client), timeout=2.0)
                tables: list[dict[str, Any]] = reply.json()["tables"] if reply.status_code == 200 else []
            except Exception as error:  # noqa: BLE001  (a process dying, say: its tables show once taken over)
                log.info("listing the tables of %s failed: %s", owner, error)
                return []
            return tables

        found = await asyncio.gather(*(listing(str(row[0])) for row in rows))
        return [table for tables in found for table in tables]

    def http(self) -> Any:
        if self._http is None:
            import httpx

            self._http = httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=3.0),
                                           limits=httpx.Limits(max_connections=None, max_keepalive_connections=64))
        return self._http

    # -- the watch: heartbeat and orphans ----------------------------------------------------------------------
    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.scan_seconds)
            await self.verify(always=True)
            if self._conn is None:  # lost, and not connected again yet: the next beat tries again
                continue
            try:
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001  (the next scan tries again)
                log.warning("hupai serve: the orphan scan failed: %s: %s", type(error).__name__, str(error)[:200])

    async def scan(self) -> list[str]:
        """Take over the live tables nobody holds (their process died); returns their ids."""
        host = self._host
        assert host is not None
        held = {(int(high), int(low)) for high, low in await self._query(_HELD)}
        taken = []
        for (table_id,) in await self._query(_LIVE):
            if table_id in host.tables or table_id in self.owned or table_id in host.broken:
                continue
            if _halves(table_key(table_id)) in held:
                continue
            try:
                if await self.acquire(table_id):
                    taken.append(table_id)
            except WireError:  # gone meanwhile, expired or broken: nothing to run
                continue
        return taken

    async def _lost(self, error: BaseException) -> None:
        """The lock connection failed: every lock may be gone with it, so every table is dropped (its clients
        told to reconnect); then a new session, and the scan takes back whatever is still free."""
        host = self._host
        assert host is not None
        cause = error.__cause__ or error
        log.error("hupai serve: the cluster's lock connection failed (%s: %s): dropping %d table(s)",
                  type(cause).__name__, str(cause)[:200], len(host.tables))
        conn, self._conn = self._conn, None
        for table_id in list(host.tables):
            await host.drop(table_id)
        self.owned.clear()
        if conn is not None:
            try:
                await conn.close()
            except Exception:  # noqa: BLE001, S110
                pass
        try:
            await self._connect()
        except Exception as again:  # noqa: BLE001  (the next heartbeat tries again)
            log.warning("hupai serve: could not reconnect to the cluster's database: %s", again)
