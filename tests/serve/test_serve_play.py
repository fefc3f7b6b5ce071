"""Playing at the reference server: every rule system hosted, a human seat over the WebSocket and over the
HTTP poll, a match of several hands with scores, the claim-window timer, the move to the next hand."""

from __future__ import annotations

import time
from typing import Any

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from serve_helpers import auth, join, new_table, play_http, play_ws


def wait_for(client: Any, table_id: str, status: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if info["status"] == status:
            return info
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} never reached {status}")


def test_every_rule_system_is_hosted(client: Any) -> None:
    listed = {r["name"]: r for r in client.get("/api/rules").json()["rules"]}
    assert sorted(listed) == hupai.rules.names()
    assert all(r["playable"] for r in listed.values())  # Wai Huzi's zipai flow included
    for name, entry in listed.items():
        n = entry["num_players"]
        table = new_table(client, rules=name, bots=list(range(n)), hands=1, seed=4)
        info = wait_for(client, table["id"], "match_over")
        assert info["num_players"] == n and info["hand"] == 0
        assert sum(info["scores"]) == 0  # payments are zero-sum


def test_a_match_of_several_hands_with_bots_keeps_the_scores(client: Any) -> None:
    table = new_table(client, bots=[0, 1, 2, 3], hands=3, seed=9)
    info = wait_for(client, table["id"], "match_over")
    assert info["hand"] == 2 and len(info["scores"]) == 4
    assert sum(info["scores"]) == 0


def test_a_human_seat_over_the_websocket_plays_a_match(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3], hands=2, seed=12)
    token = join(client, table["id"])
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        first = play_ws(ws, GreedyBot(1))
        ended = first[-1]
        assert ended["status"] == "hand_over" and ended["observation"]["result"] is not None
        assert ended["scores"] == ended["observation"]["result"]["payments"]
        ws.send_json({"type": "next"})
        second = play_ws(ws, GreedyBot(2), stop="match_over")
        last = second[-1]
        assert last["status"] == "match_over" and last["hand"] == 1
        assert last["scores"] == [a + b for a, b in zip(ended["scores"], last["observation"]["result"]["payments"],
                                                         strict=True)]


def test_a_human_seat_over_the_http_poll_plays_a_hand(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3], seed=13)
    token = join(client, table["id"])
    acked = play_http(client, table["id"], token, RandomBot(3))
    assert acked and [seq for _, seq, _ in acked] == sorted(seq for _, seq, _ in acked)
    final = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert final["status"] == "match_over" and final["observation"]["result"] is not None


def test_the_claim_timer_lets_the_servers_bot_answer_for_a_silent_seat(client: Any) -> None:
    """A silent seat's claim window runs out (no bank here): the server's bot answers it and plays the seat on
    auto until the seat says it is back (tests/serve/test_serve_timers.py tests the turn timer and the bank)."""
    table = new_table(client, bots=[1, 2, 3], claim_seconds=0.3, turn_seconds=0, bank_seconds=0, think_ms=0,
                      seed=14)
    token = join(client, table["id"])
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        bot = GreedyBot(4)
        from hupai.observation import Observation
        timed = autos = 0
        on_auto = False
        answered = None
        for _ in range(5000):
            message = ws.receive_json()
            if message["type"] != "state":
                continue
            if message["status"] != "playing":
                break
            if message["auto"]:
                assert message["auto"] == [0] and message["deadline"] is None
                if not on_auto:  # a new spell on auto: say we are back (once)
                    autos += 1
                    ws.send_json({"type": "back"})
                on_auto = True
                continue
            on_auto = False
            if message["decision"] is None or message["decision"] == answered:
                continue
            if message["observation"]["phase"] in ("claim", "rob"):
                assert 0 < message["deadline"] <= 0.3
                timed += 1
                if timed >= 3 and autos < 3:
                    continue  # silent until the server's bot answered for us three times (another seat's
                    # claim may close a window first)
            answered = message["decision"]
            action = bot.act(Observation.from_json(message["observation"]))
            ws.send_json({"type": "action", "decision": message["decision"], "action": action.to_dict()})
        else:
            raise AssertionError("the hand did not end")
    assert timed >= 6 and autos >= 3


@pytest.mark.parametrize("bad", [{"rules": "riichi"}, {"bots": [4]}, {"bots": [0, 0]}, {"hands": 0},
                                 {"think_ms": -1}, {"seed": -1}, {"options": {"no_such_option": 1}},
                                 {"claim_seconds": True}, {"colour": "red"}])
def test_a_bad_table_request_is_refused(client: Any, bad: dict[str, Any]) -> None:
    reply = client.post("/api/tables", json={"rules": "guangdong", **bad})
    assert reply.status_code == 400 and reply.json()["code"] == "malformed", reply.text


def test_the_browser_table_is_served(client: Any) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "table.js" in page.text
    assert "function render" in client.get("/static/table.js").text


def test_hupai_serve_refuses_an_unknown_database_url(capsys: Any) -> None:
    from hupai.cli import main
    assert main(["serve", "--db", "mysql://somewhere/db"]) == 2
    assert "unknown database URL" in capsys.readouterr().err
