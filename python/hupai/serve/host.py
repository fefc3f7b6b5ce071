"""The host of a server process as its parts see it: :class:`Settings`, and the :class:`Host` and
:class:`Connection` interfaces that the cluster (:mod:`.cluster`), the relay (:mod:`.relay`), spectators and
polls (:mod:`.watch`) and the WebSocket (:mod:`.ws`) use.

The app (:mod:`.app`) builds the one real host, and :mod:`.ws` the connections, from all those parts; the parts
name the host and a connection only through these protocols, so each depends on this module and none on the
app or the WebSocket that sit above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import HupaiError
from .limits import AddressLimits, Bucket
from .storage import Storage
from .tables import Listener, Table

__all__ = ["Settings", "Host", "Connection"]

#: Each limit of :class:`Settings` and its bounds (a bad value, say from a ``hupai serve`` flag, is refused).
_BOUNDS: dict[str, tuple[float, float]] = {
    "max_message": (256, 1 << 20), "http_rate": (0.001, 1e9), "http_burst": (1, 1e9), "ws_rate": (0.001, 1e9),
    "ws_burst": (1, 1e9), "max_tables": (1, 10_000_000), "hello_seconds": (0.01, 600), "max_wait": (0, 600),
    "max_connections": (1, 100_000), "tables_per_window": (1, 1_000_000), "table_window": (1, 86_400),
    "max_live_tables": (1, 1_000_000), "max_bot_tables": (0, 1_000_000), "bot_table_minutes": (0.0001, 10_080),
    "idle_minutes": (0.0001, 10_080), "absent_seconds": (0.01, 3_600), "sweep_seconds": (0.01, 3_600),
    "snapshot_every": (1, 100_000), "scan_seconds": (0.05, 600),
    "max_spectators": (0, 100_000), "max_sockets": (1, 100_000), "header_seconds": (0.05, 600),
}


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
    # Per client address (see .limits):
    max_connections: int = 64     # WebSockets and waiting polls held at once
    tables_per_window: int = 30   # tables created per table_window seconds ...
    table_window: float = 600.0
    max_live_tables: int = 100    # ... and live at once (not over, not expired)
    max_bot_tables: int = 3       # live tables without a human seat ...
    bot_table_minutes: float = 30.0  # ... each expiring this long after it was created (or restored)
    # Per table:
    idle_minutes: float = 60.0    # no act of a human seat for this long: the table expires (stored, dropped)
    absent_seconds: float = 20.0  # no connection following a seat for this long: the server's bot plays it
    sweep_seconds: float = 30.0   # how often expired tables are looked for
    snapshot_every: int = 32      # a table stores its hand's snapshot every this many actions (and at its end)
    max_spectators: int = 100     # spectator WebSockets one table holds at once (.watch)
    max_sockets: int = 128        # TCP connections per client address at once (.limits.SocketGuard) ...
    header_seconds: float = 10.0  # ... each cut if its request's headers are not complete within this time
    # Several processes over one PostgreSQL (see .cluster):
    cluster: bool = False         # share the database's tables with other `hupai serve --cluster` processes
    advertise: str = ""           # this process's address as its peers reach it (http://host:port)
    scan_seconds: float = 1.0     # how often tables whose process died are looked for (and the lock checked)

    def __post_init__(self) -> None:
        for name, (low, high) in _BOUNDS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise HupaiError(f"{name} must be in {low:g}..{high:g}, got {value!r}")


class Host(Protocol):
    """What the server's parts use of the host (:class:`hupai.serve.app.Host`): its settings, storage, tables
    and limits."""

    settings: Settings
    storage: Storage
    tables: dict[str, Table]
    broken: dict[str, str]  # table id -> why it could not be restored
    expired: dict[str, None]  # the latest expired ids
    limits: AddressLimits

    def table(self, table_id: Any) -> Table:
        """The table served here by that id, or a WireError (expired, broken, not found)."""

    def bucket(self, client: str) -> Bucket:
        """The HTTP rate limit of a client address."""

    def adopt(self, table: Table) -> None:
        """Serve ``table`` here (timers and driver started)."""

    async def drop(self, table_id: str) -> None:
        """Stop serving the table here (its connections are told it moved)."""


class Connection(Protocol):
    """What the relay and the spectator stream use of a WebSocket connection (:mod:`.ws`)."""

    address: str

    @property
    def host(self) -> Host: ...
    async def send(self, text: str) -> None: ...
    async def close(self, code: int) -> None: ...
    async def receive(self) -> Any:
        """The next message as JSON, or a WireError saying why it is refused."""

    async def follow(self, table: Table, listener: Listener) -> None:
        """Push the listener's state messages until the connection closes."""
