"""Start-up never fails because of one table: a table whose stored state cannot be restored (a row that is not
JSON, a tampered snapshot, rules this build does not know, a missing or edited action row) is logged in one
line, listed as broken, its seats told so with the error code ``broken``; the server serves the rest. On
SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hupai.bots import GreedyBot
from serve_helpers import auth, join, new_table, open_client, play_http
from test_serve_storage import storage_call


def run_sql(client: Any, sql: str, *params: Any) -> None:
    storage = client.app.state.host.storage
    client.portal.call(storage.db.run, [(sql, params, 1)])


def snapshot_of(client: Any, table_id: str) -> dict[str, Any]:
    (stored,) = storage_call(client, "load_tables", table_id)
    snapshot: dict[str, Any] = stored.snapshot
    return snapshot


def corrupt(client: Any, how: str, table_id: str) -> None:
    """Damage one stored table the way ``how`` names."""
    if how == "bad_json":
        run_sql(client, "UPDATE hupai_tables SET runtime = ? WHERE id = ?", '{"hand": 0, "seq"', table_id)
    elif how == "unknown_rules":
        (stored,) = storage_call(client, "load_tables", table_id)
        config = {**stored.config, "rules": "no-such-rules"}
        run_sql(client, "UPDATE hupai_tables SET config = ? WHERE id = ?", json.dumps(config), table_id)
    elif how == "tampered_snapshot":
        snapshot = snapshot_of(client, table_id)
        snapshot["setup"]["seed"] = (snapshot["setup"]["seed"] + 1) % (1 << 64)  # not the wall it deals
        run_sql(client, "UPDATE hupai_tables SET snapshot = ? WHERE id = ?", json.dumps(snapshot), table_id)
    elif how == "missing_action":
        run_sql(client, "DELETE FROM hupai_actions WHERE table_id = ? AND hand = 0 AND seq = 2", table_id)
    elif how == "tampered_action":
        rows = storage_call(client, "actions", table_id, 0)
        seq, seat, action = rows[-1]
        run_sql(client, "UPDATE hupai_actions SET seat = ? WHERE table_id = ? AND hand = 0 AND seq = ?",
                (seat + 1) % 4, table_id, seq)
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["bad_json", "unknown_rules", "tampered_snapshot", "missing_action",
                                 "tampered_action"])
def test_a_table_that_cannot_be_restored_is_set_aside(db_url: str, how: str,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    with open_client(db_url) as client:
        good = new_table(client, bots=[1, 2, 3], seed=11)
        bad = new_table(client, bots=[1, 2, 3], seed=12)
        good_token, bad_token = join(client, good["id"]), join(client, bad["id"])
        play_http(client, good["id"], good_token, GreedyBot(1), actions=3)
        play_http(client, bad["id"], bad_token, GreedyBot(2), actions=3)
    with open_client(db_url, drive=False) as client:
        corrupt(client, how, bad["id"])
    caplog.set_level(logging.INFO, logger="hupai.serve")
    with open_client(db_url) as client:  # the start succeeds
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[bad["id"]] == {"id": bad["id"], "status": "broken"}
        assert listed[good["id"]]["status"] == "playing"
        reply = client.get(f"/api/tables/{bad['id']}/state", headers=auth(bad_token))
        assert reply.status_code == 503 and reply.json()["code"] == "broken"
        reply = client.post(f"/api/tables/{bad['id']}/action", headers=auth(bad_token),
                            json={"decision": 0, "action": {"kind": "pass"}})
        assert reply.json()["code"] == "broken"
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": bad["id"], "token": bad_token})
            assert ws.receive_json()["code"] == "broken"
        # The rest is served: the good table plays on to the end of its hand.
        play_http(client, good["id"], good_token, GreedyBot(1))
        assert client.get(f"/api/tables/{good['id']}").json()["status"] == "match_over"
    lines = [r for r in caplog.records if bad["id"] in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR and not lines[0].exc_info
    assert "left out of play" in lines[0].getMessage()
