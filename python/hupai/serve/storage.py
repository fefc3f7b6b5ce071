"""Durable storage for the reference server: one schema and one set of queries over two drivers.

The server's tables live in memory while they are played; every change is first written here, in one
transaction, and only then acknowledged or shown to anyone (so a crash loses nothing that was acknowledged,
and nothing is applied twice: the action log's primary key is (table, hand, seq)). What is stored:

- ``hupai_tables``: one row per table: its public ``config`` (rules, options, bot seats, think time, hands),
  the ``match`` state (its seed: secret), the server's ``runtime`` facts (whose decision opened when, the
  seats ready for the next hand, the action count ``seq``), a ``snapshot`` of the current hand
  (:meth:`hupai.Game.snapshot`: secret; stored without its action list, which the action rows hold, and with
  ``action_count`` instead) taken every ``snapshot_every`` actions and at the end of each hand, and a
  ``version`` that every write bumps and checks (a second server process on the same database fails loudly
  instead of interleaving);
- ``hupai_seats``: the SHA-256 of each joined seat's token (the token itself is never stored);
- ``hupai_actions``: every accepted action, appended in the transaction that bumps the table's version. The
  table's state is its last snapshot plus the action rows after it (replayed through the engine on restore and
  checked against it), so an action's write is the same size at the hundredth action as at the first: one
  small row appended, one small row updated, never the growing action list;
- ``hupai_hands``: every finished hand's replayable log (:meth:`hupai.Game.to_json`, with its options) and
  its public result.

The queries are written once with ``?`` placeholders; a driver only runs a list of statements in one
transaction (:meth:`Database.run`) or one query (:meth:`Database.fetch`). SQLite (the default, Python's own
``sqlite3`` on one writer thread, WAL, ``synchronous=FULL``, group commit) and PostgreSQL (psycopg 3, async, a small
pool) run the very same SQL: plain TEXT and BIGINT columns, no JSON types, no upserts.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import parse_qs, urlparse

from ..errors import HupaiError, InvalidState, missing_extra

__all__ = ["Database", "Storage", "StorageConflict", "StoredTable", "check_database", "dumps", "is_storage_fault",
           "open_database", "shown_url", "Statement"]

#: ``(sql, params, expected_rowcount)``: the transaction fails (and rolls back) if a statement with an
#: expected row count changes another number of rows.
Statement = tuple[str, Sequence[Any], "int | None"]

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS hupai_tables (id TEXT PRIMARY KEY, created BIGINT NOT NULL, config TEXT NOT NULL, "
    "match TEXT NOT NULL, runtime TEXT NOT NULL, snapshot TEXT NOT NULL, version BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hupai_seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS hupai_actions (table_id TEXT NOT NULL, hand INTEGER NOT NULL, seq INTEGER NOT NULL, "
    "seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, hand, seq))",
    "CREATE TABLE IF NOT EXISTS hupai_hands (table_id TEXT NOT NULL, hand INTEGER NOT NULL, log TEXT NOT NULL, "
    "result TEXT NOT NULL, PRIMARY KEY (table_id, hand))",
)


#: The advisory lock (PostgreSQL's two-int key space, apart from the tables' one-bigint locks of .cluster) under
#: which a process creates or migrates the schema: processes starting together on an empty or older database
#: take turns (the first creates, the others wait and find it made) instead of racing on the catalog.
SCHEMA_LOCK = (0x68757061, 0x69534348)  # "hupa", "iSCH"


class StorageConflict(HupaiError):
    """A write found the stored table other than this process left it (another writer, or a lost row)."""


def is_storage_fault(error: BaseException) -> bool:
    """Whether ``error`` is the storage's (a lost connection, a time-out, a read-only or locked database, a
    conflict): logged in one line, the table put back and tried again; anything else is a bug, logged with its
    traceback."""
    return (isinstance(error, (OSError, sqlite3.Error, StorageConflict, asyncio.TimeoutError))
            or type(error).__module__.split(".")[0] == "psycopg")


class Database(Protocol):
    async def run(self, statements: Sequence[Statement]) -> None: ...

    async def create_schema(self, statements: Sequence[str]) -> None: ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    async def close(self) -> None: ...


class SQLiteDatabase:
    """``sqlite3`` on one writer thread of its own, with group commit.

    Every call is queued to the thread, so transactions never interleave. The thread takes every write waiting
    in the queue and commits them together: each in a savepoint of its own (one that fails is rolled back
    alone and its caller gets the error), one COMMIT, hence one fsync, for all. Each caller is answered only
    after that COMMIT, so "stored before acknowledged" holds, while a thousand busy tables share the disk's
    flushes instead of queueing one flush each.
    """

    MAX_GROUP = 512

    def __init__(self, path: str, synchronous: str = "full") -> None:
        self._path = path
        self._synchronous = synchronous
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False, timeout=5.0)
        _enter_wal(conn)
        # FULL (the default): committed = flushed to the disk. NORMAL (``?synchronous=normal``): in WAL mode a
        # commit survives the process's crash (kill -9) but not the machine's power loss; no flush per commit.
        conn.execute(f"PRAGMA synchronous={self._synchronous.upper()}")
        conn.execute("PRAGMA busy_timeout=5000")
        return conn

    def _worker(self) -> None:
        try:
            conn = self._connect()
        except sqlite3.Error as error:  # no database to open (a missing directory, say): every call gets why
            while (job := self._jobs.get()) is not None:
                self._answer(job, lambda error=error: _raise(error))
            return
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                batch = [job]
                while len(batch) < self.MAX_GROUP:
                    try:
                        more = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self._jobs.put(None)  # stop after this batch
                        break
                    batch.append(more)
                writes: list[Any] = []
                for item in batch:
                    if item[0] == "run":
                        writes.append(item)
                        continue
                    self._commit_group(conn, writes)
                    writes = []
                    self._answer(item, lambda sql=item[1], params=item[2]: list(conn.execute(sql, tuple(params))))
                self._commit_group(conn, writes)
        finally:
            conn.close()

    @staticmethod
    def _answer(item: Any, work: Any) -> None:
        loop, future = item[-2], item[-1]
        try:
            result = work()
        except BaseException as error:  # noqa: B036  (handed to the caller, whatever it is)
            loop.call_soon_threadsafe(_settle, future, None, error)
        else:
            loop.call_soon_threadsafe(_settle, future, result, None)

    @staticmethod
    def _commit_group(conn: sqlite3.Connection, writes: list[Any]) -> None:
        if not writes:
            return
        outcomes: list[BaseException | None] = []
        try:
            conn.execute("BEGIN IMMEDIATE")
            for _, statements, _, _ in writes:
                conn.execute("SAVEPOINT hupai_write")
                try:
                    for sql, params, expected in statements:
                        cursor = conn.execute(sql, tuple(params))
                        if expected is not None and cursor.rowcount != expected:
                            raise StorageConflict(f"expected {expected} row(s) changed, got {cursor.rowcount}: "
                                                  f"{sql[:60]}")
                except Exception as error:
                    conn.execute("ROLLBACK TO hupai_write")
                    if isinstance(error, sqlite3.IntegrityError):  # a row already there: as for PostgreSQL
                        error = StorageConflict(f"the stored table is not as this process left it: {error}")
                    outcomes.append(error)
                else:
                    outcomes.append(None)
                conn.execute("RELEASE hupai_write")
            conn.execute("COMMIT")
        except Exception as error:  # the group itself failed: nothing of it is stored
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            outcomes = [error] * len(writes)
        for (_, _, loop, future), outcome in zip(writes, outcomes, strict=True):
            loop.call_soon_threadsafe(_settle, future, None, outcome)

    def _submit(self, job: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self._thread is None:
            self._thread = threading.Thread(target=self._worker, name="hupai-sqlite", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((*job, loop, future))
        return future

    async def run(self, statements: Sequence[Statement]) -> None:
        await self._submit(("run", list(statements)))

    async def create_schema(self, statements: Sequence[str]) -> None:
        """The schema's statements in one write transaction (``BEGIN IMMEDIATE`` takes the database's write lock,
        so processes starting together take turns; ``busy_timeout`` makes the others wait for it)."""
        await self.run([(sql, (), None) for sql in statements])

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = await self._submit(("fetch", sql, params))
        return rows

    async def close(self) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            thread = self._thread
            self._thread = None
            await asyncio.get_running_loop().run_in_executor(None, thread.join)


def _enter_wal(conn: sqlite3.Connection, seconds: float = 10.0) -> None:
    """Switch the database to WAL, waiting out other processes that open it at the same moment.

    The switch needs the database to itself, and SQLite reports "database is locked" at once, without its busy
    handler, when another connection holds it; WAL is stored in the file, so once any connection has switched,
    the others find it already on.
    """
    deadline = time.monotonic() + seconds
    pause = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def _raise(error: BaseException) -> Any:
    raise error


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # cancelled by its caller, or already answered
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:  # the `postgres` extra brings it
        raise missing_extra("PostgreSQL storage (psycopg 3)", "postgres") from None
    return psycopg


class PostgresDatabase:
    """psycopg 3's async connections, a few kept in a queue (a pool without another dependency), with group
    commit: the writes waiting at one moment go in one pipelined transaction."""

    MAX_GROUP = 256
    WRITERS = 2  # of the pool's connections: the others serve reads

    def __init__(self, url: str, size: int = 4) -> None:
        _psycopg()  # a missing driver is refused now, before `hupai serve` starts serving
        self._url = url
        self.url = url  # a cluster's lock connection (see .cluster) opens its own session with it
        self._size = size
        self._pool: asyncio.Queue[Any] | None = None
        self._all: list[Any] = []
        self._writes: asyncio.Queue[tuple[list[Statement], asyncio.Future[None]]] | None = None
        self._writers: list[asyncio.Task[None]] = []

    async def _conn(self) -> Any:
        if self._pool is None:
            pool: asyncio.Queue[Any] = asyncio.Queue()
            for _ in range(self._size):
                pool.put_nowait(None)  # a slot: connected on first use
            self._pool = pool
        conn = await self._pool.get()
        if conn is None or conn.closed:
            try:
                conn = await self._connect()
            except BaseException:
                self._pool.put_nowait(None)  # the slot stays, to connect again on the next call
                raise
        return conn

    async def _connect(self) -> Any:
        conn = await _psycopg().AsyncConnection.connect(self._url, autocommit=False)
        self._all.append(conn)
        return conn

    def _release(self, conn: Any) -> None:
        """Back to the pool; a connection the server dropped (a restart, a network cut) is replaced on next
        use, so an outage of the database does not outlive the database's return."""
        if self._pool is None:  # closed meanwhile (the server stopping): close() closes every connection
            return
        if conn.broken or conn.closed:
            if conn in self._all:
                self._all.remove(conn)
            conn = None
        self._pool.put_nowait(conn)

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")  # our SQL holds no literal question marks

    async def run(self, statements: Sequence[Statement]) -> None:
        """Queued to the writers, which commit every write waiting at one moment in one pipelined transaction
        (one round trip and one commit for many tables, as SQLite's group commit); answered after the COMMIT."""
        loop = asyncio.get_running_loop()
        if self._writes is None:
            self._writes = asyncio.Queue()
            self._writers = [loop.create_task(self._writer(), name=f"hupai-pg-writer-{k}")
                             for k in range(self.WRITERS)]
        future: asyncio.Future[None] = loop.create_future()
        self._writes.put_nowait((list(statements), future))
        await future

    async def _writer(self) -> None:
        assert self._writes is not None
        while True:
            batch = [await self._writes.get()]
            while len(batch) < self.MAX_GROUP and not self._writes.empty():
                batch.append(self._writes.get_nowait())
            try:
                conn = await self._conn()
            except Exception as error:  # the database is away: every waiting write fails, nothing is stored
                for _, future in batch:
                    _settle(future, None, error)
                continue
            try:
                await self._commit_group(conn, batch)
            except Exception as error:  # not expected: answer every write still waiting, and go on
                for _, future in batch:
                    _settle(future, None, error)
            finally:
                self._release(conn)

    async def _commit_group(self, conn: Any, batch: list[tuple[list[Statement], asyncio.Future[None]]]) -> None:
        if len(batch) > 1:
            try:
                await self._pipelined(conn, [statement for statements, _ in batch for statement in statements])
            except Exception:  # a conflict or an error in one of them: each on its own, to answer each
                pass
            else:
                for _, future in batch:
                    _settle(future, None, None)
                return
        for statements, future in batch:
            try:
                await self._pipelined(conn, statements)
            except Exception as error:
                _settle(future, None, error)
            else:
                _settle(future, None, None)

    async def _pipelined(self, conn: Any, statements: list[Statement]) -> None:
        """One transaction, its statements sent in one round trip, every row count checked before COMMIT."""
        import psycopg

        try:
            async with conn.pipeline() as pipeline, conn.transaction():
                cursors = []
                for sql, params, expected in statements:
                    cursor = conn.cursor()
                    await cursor.execute(self._sql(sql), tuple(params))
                    cursors.append((cursor, expected, sql))
                await pipeline.sync()
                for cursor, expected, sql in cursors:
                    if expected is not None and cursor.rowcount != expected:
                        raise StorageConflict(f"expected {expected} row(s) changed, got {cursor.rowcount}: "
                                              f"{sql[:60]}")
        except psycopg.errors.IntegrityError as error:
            # A row already there (an action at its seq): the stored table moved on without this process
            # knowing (a write whose answer was lost); pipelined, this shows before the version check does.
            raise StorageConflict(f"the stored table is not as this process left it: {error}") from error

    async def create_schema(self, statements: Sequence[str]) -> None:
        """The schema's statements in one transaction under :data:`SCHEMA_LOCK`. ``CREATE TABLE IF NOT EXISTS``
        alone is no guard: two sessions that both find the table missing both insert it into the catalog, and
        the second fails (``UniqueViolation`` on ``pg_type``)."""
        conn = await self._conn()
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", SCHEMA_LOCK)
                for sql in statements:
                    await conn.execute(sql)
        finally:
            self._release(conn)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        conn = await self._conn()
        try:
            async with conn.transaction():
                async with conn.cursor() as cursor:
                    await cursor.execute(self._sql(sql), tuple(params))
                    return [tuple(row) for row in await cursor.fetchall()]
        finally:
            self._release(conn)

    async def close(self) -> None:
        writers, self._writers, self._writes = self._writers, [], None
        for writer in writers:
            writer.cancel()
        await asyncio.gather(*writers, return_exceptions=True)  # each gives its connection back first
        for conn in self._all:
            try:
                await conn.close()
            except Exception:  # noqa: S110  (already gone: nothing to close)
                pass
        self._all.clear()
        self._pool = None


def open_database(url: str) -> Database:
    """``sqlite:///path.db`` (``?synchronous=normal``: no flush per commit, see :class:`SQLiteDatabase`), or
    ``postgresql://...``."""
    try:
        parsed = urlparse(url)
        parsed.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError as error:
        raise HupaiError(f"{shown_url(url)} is not a database URL ({error}): use sqlite:///file.db or "
                         "postgresql://user:password@host:port/database") from None
    if parsed.scheme == "sqlite":
        path = parsed.path[1:] if url.startswith("sqlite:///") else ""
        if not path:
            raise HupaiError(f"a SQLite URL is sqlite:///path/to/file.db, got {url!r}")
        query = parse_qs(parsed.query)
        synchronous = query.pop("synchronous", ["full"])[-1].lower()
        if query or synchronous not in ("full", "normal"):
            raise HupaiError(f"a SQLite URL takes only ?synchronous=full|normal, got {parsed.query!r}")
        return SQLiteDatabase(path, synchronous)
    if parsed.scheme in ("postgresql", "postgres"):
        return PostgresDatabase(url)
    raise HupaiError(f"unknown database URL {shown_url(url)!r}: use sqlite:///file.db or postgresql://...")


def shown_url(url: str) -> str:
    """The URL as a message may show it: its password masked."""
    try:
        parsed = urlparse(url)
        if parsed.password is None:
            return url
        return parsed._replace(netloc=parsed.netloc.replace(f":{parsed.password}@", ":***@", 1)).geturl()
    except ValueError:
        return "the --db URL"


async def check_database(url: str) -> None:
    """Open the database at ``url``, create its schema where missing, close it: a database that cannot be reached
    or used (not running, refused, a wrong password, a missing directory) is one :class:`HupaiError` saying what
    to check, before the server starts."""
    database = open_database(url)
    try:
        await asyncio.wait_for(Storage(database).init(), 30)
    except HupaiError:
        raise
    except Exception as error:
        if not is_storage_fault(error):
            raise
        reason = " ".join(str(error).split()) or type(error).__name__
        if isinstance(database, SQLiteDatabase):
            hint = "check that the file's directory exists and that this user may write there"
        else:
            hint = ("check that PostgreSQL runs at that host and port and that the URL's user, password and "
                    "database are right")
        raise HupaiError(f"cannot use the database {shown_url(url)}: {reason[:300]}: {hint} (--db)") from None
    finally:
        await database.close()


@dataclass
class StoredTable:
    id: str
    config: dict[str, Any]
    match: dict[str, Any]
    runtime: dict[str, Any]
    snapshot: dict[str, Any]
    version: int
    token_hashes: dict[int, str]


def _stdlib_dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _fast_encoder() -> Any:
    """orjson's encoder (the ``server`` extra brings it) unless ``HUPAI_JSON=stdlib``; None: the standard one.
    On the server's hot path (a state message per seat per change, the write of each action) it is 5-25 times
    faster than ``json.dumps`` (bench/serve_load.py, README). Same text: compact, UTF-8 unescaped, keys in
    insertion order."""
    if os.environ.get("HUPAI_JSON", "").lower() == "stdlib":
        return None
    try:
        import orjson
    except ImportError:
        return None
    return orjson


_ORJSON = _fast_encoder()


def dumps(data: Any) -> str:
    """Compact JSON text, by orjson where it is installed (with the standard library's as the fallback)."""
    if _ORJSON is not None:
        try:
            text: str = _ORJSON.dumps(data, option=_ORJSON.OPT_NON_STR_KEYS).decode()
            return text
        except TypeError:  # what orjson does not take (an int past 64 bits): the standard encoder
            pass
    return _stdlib_dumps(data)


_dumps = dumps


def _snapshot_text(snapshot: dict[str, Any]) -> str:
    """A hand's snapshot as stored: without its action list, which the hand's action rows hold already (it
    would make each snapshot grow with the hand); ``action_count`` says how many of those rows it includes."""
    return _dumps({**{k: v for k, v in snapshot.items() if k != "actions"}, "action_count": len(snapshot["actions"])})


def _loads(text: Any, what: str) -> dict[str, Any]:
    """A stored JSON object, or InvalidState naming the column (a damaged row is refused, never half-read)."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError) as error:
        raise InvalidState(f"{what}: not JSON ({error})") from None
    if not isinstance(data, dict):
        raise InvalidState(f"{what}: not a JSON object")
    return data


class Storage:
    """The server's queries, the same for every driver. ``snapshot_every``: how many actions a table appends
    between two snapshots of its hand (a hand's end always takes one)."""

    def __init__(self, db: Database, snapshot_every: int = 32) -> None:
        if type(snapshot_every) is not int or snapshot_every < 1:
            raise HupaiError(f"snapshot_every must be an int >= 1, got {snapshot_every!r}")
        self.db = db
        self.snapshot_every = snapshot_every

    async def init(self) -> None:
        """Create the schema where it is missing (safe with other processes starting at the same moment)."""
        await self.db.create_schema(SCHEMA)

    async def close(self) -> None:
        await self.db.close()

    async def create_table(self, table_id: str, created: int, config: dict[str, Any], match: dict[str, Any],
                           runtime: dict[str, Any], snapshot: dict[str, Any]) -> None:
        await self.db.run([("INSERT INTO hupai_tables (id, created, config, match, runtime, snapshot, version) "
                            "VALUES (?, ?, ?, ?, ?, ?, 0)",
                            (table_id, created, _dumps(config), _dumps(match), _dumps(runtime),
                             _snapshot_text(snapshot)), 1)])

    def _update(self, table_id: str, version: int, runtime: dict[str, Any],
                state: tuple[dict[str, Any], dict[str, Any]] | None) -> Statement:
        if state is None:  # an action between two snapshots: the runtime facts only (a few hundred bytes)
            return ("UPDATE hupai_tables SET runtime = ?, version = ? WHERE id = ? AND version = ?",
                    (_dumps(runtime), version + 1, table_id, version), 1)
        match, snapshot = state
        return ("UPDATE hupai_tables SET match = ?, runtime = ?, snapshot = ?, version = ? "
                "WHERE id = ? AND version = ?",
                (_dumps(match), _dumps(runtime), _snapshot_text(snapshot), version + 1, table_id, version), 1)

    async def record_action(self, table_id: str, version: int, hand: int, seq: int, seat: int,
                            action: dict[str, Any], runtime: dict[str, Any],
                            state: tuple[dict[str, Any], dict[str, Any]] | None = None,
                            finished_log: str | None = None, result: dict[str, Any] | None = None) -> None:
        """One accepted action: the appended log row and the new runtime facts (with the match and a new
        snapshot when ``state`` is given; and, if the hand ended with it, the hand's log), in one
        transaction."""
        statements: list[Statement] = [
            self._update(table_id, version, runtime, state),
            ("INSERT INTO hupai_actions (table_id, hand, seq, seat, action) VALUES (?, ?, ?, ?, ?)",
             (table_id, hand, seq, seat, _dumps(action)), 1),
        ]
        if finished_log is not None:
            statements.append(("INSERT INTO hupai_hands (table_id, hand, log, result) VALUES (?, ?, ?, ?)",
                               (table_id, hand, finished_log, _dumps(result)), 1))
        await self.db.run(statements)

    async def update_state(self, table_id: str, version: int, runtime: dict[str, Any],
                           state: tuple[dict[str, Any], dict[str, Any]] | None = None) -> None:
        """A change that is not an action (the next hand dealt, a seat ready)."""
        await self.db.run([self._update(table_id, version, runtime, state)])

    async def add_seat(self, table_id: str, seat: int, token_hash: str) -> None:
        """A seat's token hash. Any hash already stored for the seat is replaced: the server gives a seat only
        while it holds none, so one stored is a join whose answer was lost (its token reached no one)."""
        await self.db.run([("DELETE FROM hupai_seats WHERE table_id = ? AND seat = ?", (table_id, seat), None),
                           ("INSERT INTO hupai_seats (table_id, seat, token_hash) VALUES (?, ?, ?)",
                            (table_id, seat, token_hash), 1)])

    async def table_ids(self) -> list[str]:
        """Every stored table's id, in the order they were created."""
        return [str(row[0]) for row in await self.db.fetch("SELECT id FROM hupai_tables ORDER BY created, id")]

    async def load_tables(self, table_id: str | None = None) -> list[StoredTable]:
        """Every stored table (or the one named), in the order they were created. A row whose columns are not
        the JSON objects this module writes raises InvalidState (read one table at a time to set it aside)."""
        where, params = ("WHERE id = ? ", (table_id,)) if table_id is not None else ("", ())
        rows = await self.db.fetch("SELECT id, config, match, runtime, snapshot, version FROM hupai_tables "
                                   f"{where}ORDER BY created, id", params)
        seats = await self.db.fetch(f"SELECT table_id, seat, token_hash FROM hupai_seats "
                                    f"{where.replace('id', 'table_id')}", params)
        hashes: dict[str, dict[int, str]] = {}
        for table_id, seat, token_hash in seats:
            hashes.setdefault(table_id, {})[int(seat)] = token_hash
        tables = []
        for row in rows:
            config, match, runtime, snapshot = (_loads(text, name) for text, name in zip(row[1:5], _COLUMNS,
                                                                                         strict=True))
            tables.append(StoredTable(row[0], config, match, runtime, snapshot, int(row[5]), hashes.get(row[0], {})))
        return tables

    async def actions(self, table_id: str, hand: int) -> list[tuple[int, int, dict[str, Any]]]:
        """The stored action log of one hand: ``(seq, seat, action)`` in order (InvalidState if a row is not
        a JSON object)."""
        rows = await self.db.fetch("SELECT seq, seat, action FROM hupai_actions WHERE table_id = ? AND hand = ? "
                                   "ORDER BY seq", (table_id, hand))
        return [(int(seq), int(seat), _loads(action, f"hupai_actions[{table_id}, {hand}, {seq}].action"))
                for seq, seat, action in rows]

    async def has_table(self, table_id: str) -> bool:
        return bool(await self.db.fetch("SELECT 1 FROM hupai_tables WHERE id = ?", (table_id,)))

    async def hand_results(self, table_id: str) -> list[tuple[int, dict[str, Any]]]:
        """The finished hands without their logs: ``(hand, result)``."""
        rows = await self.db.fetch("SELECT hand, result FROM hupai_hands WHERE table_id = ? ORDER BY hand",
                                   (table_id,))
        return [(int(hand), json.loads(result)) for hand, result in rows]

    async def hand_log(self, table_id: str, hand: int) -> str | None:
        """One finished hand's log (None: no such finished hand)."""
        rows = await self.db.fetch("SELECT log FROM hupai_hands WHERE table_id = ? AND hand = ?", (table_id, hand))
        return str(rows[0][0]) if rows else None

    async def hands(self, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
        """The finished hands: ``(hand, log, result)``."""
        rows = await self.db.fetch("SELECT hand, log, result FROM hupai_hands WHERE table_id = ? ORDER BY hand",
                                   (table_id,))
        return [(int(hand), log, json.loads(result)) for hand, log, result in rows]


_COLUMNS = ("hupai_tables.config", "hupai_tables.match", "hupai_tables.runtime", "hupai_tables.snapshot")
