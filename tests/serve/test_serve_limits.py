"""Limits per client, not only per message (issue 20 item 7): binary WebSocket frames are refused and counted;
the WebSocket hello shares the address's HTTP budget; connections and tables per address are capped; idle
tables and tables without a human seat expire (stored as such, dropped from memory, left out at a restart).
Each limit answers with an error code (an HTTP status or a WebSocket error) and logs no traceback."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from hupai.errors import HupaiError
from hupai.serve.app import Settings
from hupai.serve.limits import AddressLimits
from serve_helpers import auth, join, new_table, open_client


@pytest.fixture(autouse=True)
def no_traceback(caplog: pytest.LogCaptureFixture) -> Any:
    """Every test here: nothing the server logs carries a traceback, and nothing is logged as an error."""
    caplog.set_level(logging.INFO)
    yield
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def hello(client: Any, table_id: str, token: str) -> dict[str, Any]:
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table_id, "token": token})
        reply: dict[str, Any] = ws.receive_json()
        return reply


def test_binary_frames_get_an_error_and_count_against_the_rate_limit(sqlite_url: str) -> None:
    with open_client(sqlite_url, ws_rate=0.01, ws_burst=4) as client:
        table = new_table(client, bots=[], seed=None)  # nothing moves unless the seat acts
        token = join(client, table["id"])
        with client.websocket_connect("/api/ws") as ws:
            ws.send_bytes(b'{"type": "hello"}')  # a binary hello: refused, and the connection closed
            assert ws.receive_json()["code"] == "binary"
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": token})  # 1 of the 4
            assert ws.receive_json()["type"] == "state"
            codes = []
            for _ in range(5):
                ws.send_bytes(b"\x00\x01binary")
                codes.append(ws.receive_json()["code"])
            assert codes == ["binary"] * 3 + ["rate_limited"] * 2
            ws.send_json({"type": "ping"})  # the budget is spent: binary frames used it
            assert ws.receive_json()["code"] == "rate_limited"


def test_the_websocket_hello_shares_the_addresss_http_budget(sqlite_url: str) -> None:
    with open_client(sqlite_url, http_rate=0.01, http_burst=6) as client:
        table = new_table(client, bots=[1, 2, 3], seed=None)  # 1 request
        token = join(client, table["id"])  # 2
        codes = [hello(client, table["id"], "guess" + str(i)).get("code") for i in range(4)]  # 3..6
        assert codes == ["forbidden"] * 4
        reply = hello(client, table["id"], token)  # even the right token: the budget is spent
        assert reply["type"] == "error" and reply["code"] == "rate_limited"
        refused = client.get("/api/tables")  # and HTTP shares it
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_connections_per_address_are_capped(sqlite_url: str) -> None:
    with open_client(sqlite_url, max_connections=2) as client:
        table = new_table(client, bots=[1, 2, 3], seed=None)
        token = join(client, table["id"])
        with client.websocket_connect("/api/ws") as one, client.websocket_connect("/api/ws") as two:
            one.send_json({"type": "hello", "table": table["id"], "token": token})
            assert one.receive_json()["type"] == "state"
            with client.websocket_connect("/api/ws") as three:
                assert three.receive_json()["code"] == "connections"
            # A waiting poll is a connection held too; a plain request is not.
            poll = client.get(f"/api/tables/{table['id']}/state", params={"wait": 1, "after": 10**6},
                              headers=auth(token))
            assert poll.status_code == 429 and poll.json()["code"] == "connections"
            assert client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).status_code == 200
            two.close()
        with client.websocket_connect("/api/ws") as again:  # freed on close
            again.send_json({"type": "hello", "table": table["id"], "token": token})
            assert again.receive_json()["type"] == "state"
        assert client.app.state.host.limits.connections == {}


def test_tables_per_address_are_capped_per_window_live_and_without_a_human(sqlite_url: str) -> None:
    with open_client(sqlite_url, tables_per_window=3) as client:
        for _ in range(3):
            new_table(client, bots=[1, 2, 3], seed=None)
        refused = client.post("/api/tables", json={"rules": "guangdong"})
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_tables"
    with open_client(sqlite_url, max_live_tables=2, max_bot_tables=1) as client:
        new_table(client, bots=[0, 1, 2, 3], think_ms=10_000, hands=64)  # a live table of bots
        refused = client.post("/api/tables", json={"rules": "guangdong", "bots": [0, 1, 2, 3]})
        assert refused.status_code == 429 and "without a human" in refused.json()["message"]
        mine = new_table(client, bots=[1, 2, 3], seed=None)
        refused = client.post("/api/tables", json={"rules": "guangdong"})
        assert refused.status_code == 429 and "live tables" in refused.json()["message"]
        # A finished table no longer counts (the tables restored from the block above are nobody's).
        client.app.state.host.tables[mine["id"]].status = "match_over"
        new_table(client, bots=[1, 2, 3], seed=None)


def test_the_creation_window_slides() -> None:
    limits = AddressLimits(Settings(tables_per_window=2, table_window=60), live=lambda table_id: True)
    limits.created_table("a", "t1", False, now=0.0)
    limits.created_table("a", "t2", False, now=10.0)
    with pytest.raises(HupaiError, match="per 60 s"):
        limits.check_create("a", False, now=59.0)
    limits.check_create("b", False, now=59.0)  # another address: its own window
    limits.check_create("a", False, now=61.0)  # t1 left the window


def test_idle_tables_and_old_bot_tables_expire(sqlite_url: str) -> None:
    with open_client(sqlite_url, idle_minutes=5, bot_table_minutes=2) as client:
        host = client.app.state.host
        humans = new_table(client, bots=[1, 2, 3], seed=None)
        token = join(client, humans["id"])
        bots = new_table(client, bots=[0, 1, 2, 3], think_ms=10_000, hands=64)
        now = time.monotonic()
        assert client.portal.call(host.sweep, now + 60) == []
        assert client.portal.call(host.sweep, now + 150) == [bots["id"]]  # past the bot tables' life
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": humans["id"], "token": token})  # an act: not idle
            assert ws.receive_json()["type"] == "state"
            assert client.portal.call(host.sweep, time.monotonic() + 200) == []
            assert client.portal.call(host.sweep, time.monotonic() + 301) == [humans["id"]]
            expired = next(m for m in iter(ws.receive_json, None) if m.get("status") == "expired")
            assert expired["decision"] is None and expired["deadline"] is None
        for table in (humans, bots):
            gone = client.get(f"/api/tables/{table['id']}")
            assert gone.status_code == 410 and gone.json()["code"] == "expired"
            (stored,) = client.portal.call(host.storage.load_tables, table["id"])
            assert stored.runtime["status"] == "expired"
        assert host.tables == {}
        assert hello(client, humans["id"], token)["code"] == "expired"
        assert client.post(f"/api/tables/{humans['id']}/action", headers=auth(token),
                           json={"decision": 0, "action": {"kind": "pass"}}).status_code == 410
    with open_client(sqlite_url) as client:  # a restart leaves the expired tables out
        assert client.get("/api/tables").json()["tables"] == []
        assert client.get(f"/api/tables/{humans['id']}").json()["code"] == "expired"


def test_every_limit_is_a_bounded_setting_and_a_serve_flag(capsys: Any) -> None:
    for bad in ({"idle_minutes": 0}, {"max_connections": 0}, {"absent_seconds": -1}, {"tables_per_window": 10**9},
                {"max_bot_tables": 1.5e9}, {"sweep_seconds": True}):
        with pytest.raises(HupaiError):
            Settings(**bad)  # type: ignore[arg-type]
    from hupai.cli import main
    assert main(["serve", "--idle-minutes", "0"]) == 2
    assert "idle_minutes must be in" in capsys.readouterr().err
    assert main(["serve", "--max-connections", "-3"]) == 2
    assert "max_connections" in capsys.readouterr().err
    assert main(["serve", "--http-rate", "0"]) == 2  # the HTTP budget (and the hellos'), raised by the load bench
    assert "http_rate must be in" in capsys.readouterr().err
    assert main(["serve", "--http-burst", "0.5"]) == 2
    assert "http_burst must be in" in capsys.readouterr().err
