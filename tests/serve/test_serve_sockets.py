"""Raw TCP connections against a real ``hupai serve`` (issue 29 item 8): one address cannot hold more than
``--max-sockets`` connections (more are closed as they arrive), and a connection that never finishes its
request headers, or trickles them, is closed after ``--header-seconds``; meanwhile a client from another address
is served. Real sockets on 127.0.0.1 (the attacker) and 127.0.0.2 (another client), bounded in count and time."""

from __future__ import annotations

import select
import socket
import time
from pathlib import Path

import pytest
from serve_helpers import ONE_ADDRESS, free_port, server

httpx = pytest.importorskip("httpx")

CAP = 20
HEADER_SECONDS = 1.5
SLOW = 60


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed (or reset) the connection."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(4096) == b""
    except OSError:
        return True


def _other_address_served(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.2", 0)) as sock:
        sock.sendall(b"GET /api/rules HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    return reply.startswith(b"HTTP/1.1 200")


def test_one_address_cannot_hold_every_socket_and_slow_headers_are_cut(tmp_path: Path) -> None:
    port = free_port()
    flags = (*ONE_ADDRESS, "--max-sockets", str(CAP), "--header-seconds", str(HEADER_SECONDS))
    with server(f"sqlite:///{tmp_path / 'x.db'}", port, tmp_path / "server.log", flags):
        time.sleep(HEADER_SECONDS + 1.0)  # the readiness probe's own connection is gone
        slow = []
        try:
            for _ in range(SLOW):
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(b"GET /api/rules HTTP/1.1\r\nHost: x\r\n")  # never finished
                slow.append(sock)
            deadline = time.monotonic() + 30  # (a loaded machine: the server closes them as it gets to them)
            closed: set[int] = set()
            while True:
                closed |= {k for k, sock in enumerate(slow) if k not in closed and _closed(sock)}
                if SLOW - len(closed) <= CAP:
                    break
                assert time.monotonic() < deadline, f"{SLOW - len(closed)} slow sockets of one address held open"
                time.sleep(0.1)
            open_now = [sock for k, sock in enumerate(slow) if k not in closed]
            assert _other_address_served(port)
            trickler = slow[0] if slow[0] in open_now else None
            deadline = time.monotonic() + HEADER_SECONDS + 30.0
            while time.monotonic() < deadline and not all(_closed(sock) for sock in open_now):
                if trickler is not None:
                    try:
                        trickler.sendall(b"X")  # a byte now and then does not keep it open
                    except OSError:
                        trickler = None
                time.sleep(0.2)
            assert time.monotonic() < deadline, "a connection with unfinished headers was never cut"
        finally:
            for sock in slow:
                sock.close()
        # The address is free again, and a normal keep-alive client is served request after request.
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            for _ in range(3):
                assert client.get("/api/rules").status_code == 200
