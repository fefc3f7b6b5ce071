"""Forwarding to the process that holds a table (:mod:`.cluster`): an HTTP request proxied whole, a WebSocket
relayed frame by frame.

The forwarding process has already charged the client's rate limit and checked the message's size; the owner
sees the client's address (the peer headers) and does everything else: the token, the action, its storage. If
the owner goes away in the middle, an HTTP request is answered ``unavailable`` (nothing acknowledged: the
client asks again, and reaches the table wherever it runs by then) and a relayed WebSocket gets
``{"type": "error", "code": "moved"}`` and is closed with 1012: the client connects again (the browser table
does it on its own) and its hello finds the table's new process.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocketDisconnect

from .limits import address, error_reply
from .wire import WireError

if TYPE_CHECKING:  # pragma: no cover
    from .cluster import Cluster
    from .host import Connection

__all__ = ["forward_http", "relay_ws", "MOVED_CLOSE"]

log = logging.getLogger("hupai.serve")

MOVED_CLOSE = 1012  # "service restart": the table moved to another process; connect again
_HOP_HEADERS = ("authorization", "content-type")


async def forward_http(cluster: Cluster, request: Request, owner: str, body: bytes) -> Response:
    """The request as the owner answers it; ``unavailable`` (raised) if the owner cannot be reached."""
    import httpx

    headers = {name: request.headers[name] for name in _HOP_HEADERS if name in request.headers}
    headers.update(cluster.peer_headers(address(request)))
    try:
        reply = await cluster.http().request(request.method, owner + request.url.path,
                                             params=list(request.query_params.multi_items()), content=body,
                                             headers=headers)
    except httpx.HTTPError as error:
        cluster.unreachable(request.path_params["table_id"])
        log.warning("forwarding %s %s to %s failed: %s: %s", request.method, request.url.path, owner,
                    type(error).__name__, str(error)[:200])
        raise WireError("unavailable", "the table's server process did not answer: try again") from None
    if reply.status_code == 503:  # it no longer runs the table, say: look its owner up again next time
        cluster.unreachable(request.path_params["table_id"])
    return Response(reply.content, status_code=reply.status_code,
                    media_type=reply.headers.get("content-type", "application/json"))


async def relay_ws(cluster: Cluster, connection: Connection, hello: dict[str, Any], owner: str) -> bool:
    """Relay the client's WebSocket to the owner's until either side closes. False: the owner could not be
    reached at all (the caller looks for the table again)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, WebSocketException

    url = "ws" + owner[len("http"):] + "/api/ws"
    try:
        upstream = await connect(url, additional_headers=cluster.peer_headers(connection.address),
                                 max_size=connection.host.settings.max_message * 64, compression=None,
                                 open_timeout=3)
    except (OSError, WebSocketException, asyncio.TimeoutError) as error:
        log.warning("relaying a WebSocket to %s failed: %s: %s", owner, type(error).__name__, str(error)[:200])
        cluster.unreachable(str(hello.get("table")))
        return False
    async with upstream:
        await upstream.send(json.dumps(hello))

        told: list[bool] = []  # whether the owner itself said "moved" (it dropped the table)

        async def down() -> None:  # the owner's messages to the client, as they come
            async for message in upstream:
                text = message if isinstance(message, str) else message.decode()
                if '"code":"moved"' in text.replace(" ", ""):
                    told.append(True)
                await connection.send(text)

        pushing = asyncio.get_running_loop().create_task(down())
        try:
            while not pushing.done():
                receiving = asyncio.ensure_future(connection.receive())
                await asyncio.wait({receiving, pushing}, return_when=asyncio.FIRST_COMPLETED)
                if not receiving.done():
                    receiving.cancel()
                    await asyncio.gather(receiving, return_exceptions=True)
                    break
                try:
                    data = receiving.result()
                except WireError as error:  # refused here (rate, size, not JSON): answered here, as the owner would
                    await connection.send(json.dumps(error_reply(error.code, str(error))))
                    if error.code == "too_large":
                        await connection.close(1009)
                        return True
                    continue
                await upstream.send(json.dumps(data))
        except (WebSocketDisconnect, RuntimeError, OSError):  # the client left: so does the relay
            return True
        except ConnectionClosed:
            pass
        finally:
            pushing.cancel()
            await asyncio.gather(pushing, return_exceptions=True)
    code = upstream.close_code
    try:
        if code in (None, 1001, 1006, 1011, MOVED_CLOSE) and not told:  # the owner went away: connect again
            cluster.unreachable(str(hello.get("table")))
            await connection.send(json.dumps(error_reply("moved", "the table moved to another server process: "
                                                                  "connect again")))
            await connection.close(MOVED_CLOSE)
        else:  # the owner closed it (replaced, refused, moved): as it said
            await connection.close(1000 if code in (None, 1005) else code)
    except (WebSocketDisconnect, RuntimeError, OSError):  # the client is gone too
        pass
    return True
