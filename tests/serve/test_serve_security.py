"""Security of the reference server: a token opens exactly one seat (and no guess made from it opens
another); forged, replayed, out-of-turn, illegal, malformed and oversized messages are refused with a clear
error and change nothing; rate limits; no message shows another seat's concealed tiles, the wall or the
seed (checked against the hidden state at each message's point of the hand)."""

from __future__ import annotations

import base64
import json
import sqlite3
from typing import Any

import hupai
import pytest
from hupai.bots import GreedyBot
from hupai.game import Game
from serve_helpers import assert_no_leak, auth, join, new_table, open_client, play_ws


def stored(url: str, table_id: str) -> tuple[Any, ...]:
    """Everything the storage holds about a table (to check that a refusal changed nothing)."""
    with sqlite3.connect(url[len("sqlite:///"):]) as db:
        row = db.execute("SELECT version, match, runtime, snapshot FROM hupai_tables WHERE id = ?",
                         (table_id,)).fetchone()
        actions = db.execute("SELECT hand, seq, seat, action FROM hupai_actions WHERE table_id = ? ORDER BY seq",
                             (table_id,)).fetchall()
    return row, tuple(actions)


def state(client: Any, table_id: str, token: str) -> dict[str, Any]:
    reply = client.get(f"/api/tables/{table_id}/state", headers=auth(token))
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def guesses(token: str, table_id: str) -> list[str]:
    """Tokens a client could derive from its own: every one-character change, truncations and extensions,
    the decoded bytes nudged up and down (a counter), seat numbers and the table id mixed in."""
    out = {token[:i] + c + token[i + 1:] for i in range(len(token)) for c in "A9_" if c != token[i]}
    out |= {token[:-1], token[1:], token + "A", token.upper(), token.lower(), token[::-1], table_id,
            table_id + token, token + table_id, ""}
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    number = int.from_bytes(raw, "big")
    for delta in range(-8, 9):
        if delta:
            nudged = ((number + delta) % (1 << (8 * len(raw)))).to_bytes(len(raw), "big")
            out.add(base64.urlsafe_b64encode(nudged).decode().rstrip("="))
    for seat in range(4):
        out |= {token[:-1] + str(seat), str(seat) + token[1:], f"{table_id}:{seat}", f"{token}{seat}"}
    out.discard(token)
    return sorted(out)


def test_a_token_opens_exactly_its_seat_and_no_guess_opens_another(sqlite_url: str) -> None:
    with open_client(sqlite_url, http_rate=1e6, http_burst=1e6) as client:  # every guess reaches the check
        guess_every_token(client, sqlite_url)


def guess_every_token(client: Any, sqlite_url: str) -> None:
    table = new_table(client, bots=[2, 3], seed=None)
    other = new_table(client, bots=[1, 2, 3])
    tokens = [join(client, table["id"], 0), join(client, table["id"], 1)]
    other_token = join(client, other["id"])
    assert state(client, table["id"], tokens[0])["seat"] == 0
    assert state(client, table["id"], tokens[1])["seat"] == 1
    assert state(client, other["id"], other_token)["seat"] == 0
    # The tokens are unrelated: long, and no shared prefix beyond chance.
    assert all(len(t) >= 40 for t in tokens)
    assert tokens[0][:6] != tokens[1][:6]
    tried = 0
    for token, table_id in ((tokens[0], table["id"]), (tokens[1], table["id"]), (other_token, other["id"])):
        for guess in guesses(token, table_id):
            reply = client.get(f"/api/tables/{table_id}/state", headers=auth(guess))
            assert reply.status_code == 403, (guess, reply.text)
            tried += 1
    # A token of one table opens nothing at another.
    assert client.get(f"/api/tables/{other['id']}/state", headers=auth(tokens[0])).status_code == 403
    assert client.get(f"/api/tables/{table['id']}/state", headers=auth(other_token)).status_code == 403
    assert tried > 400
    # Only the tokens' hashes are stored.
    with sqlite3.connect(sqlite_url[len("sqlite:///"):]) as db:
        dump = "\n".join(db.iterdump())
    assert not any(t in dump for t in (*tokens, other_token))


def test_guessed_tokens_are_refused_over_the_websocket(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3])
    token = join(client, table["id"])
    for guess in guesses(token, table["id"])[:40]:
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": guess})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "forbidden"
    with client.websocket_connect("/api/ws") as ws:  # the right one still works
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        assert ws.receive_json()["seat"] == 0


def test_a_seat_is_joined_once(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3])
    join(client, table["id"], 0)
    assert client.post(f"/api/tables/{table['id']}/join", json={"seat": 0}).status_code == 409
    assert client.post(f"/api/tables/{table['id']}/join", json={"seat": 1}).status_code == 409  # a bot's
    assert client.post(f"/api/tables/{table['id']}/join", json={}).json()["code"] == "full"


def first_decision(client: Any, table_id: str, tokens: dict[int, str]) -> tuple[int, dict[str, Any]]:
    """The human seat that must decide now and its state."""
    for seat, token in tokens.items():
        data = state(client, table_id, token)
        if data["decision"] is not None:
            return seat, data
    raise AssertionError("no human seat to act")


def refused(client: Any, table_id: str, token: str, body: Any, code: str | tuple[str, ...], *,
            raw: bytes | None = None) -> None:
    reply = (client.post(f"/api/tables/{table_id}/action", headers=auth(token), content=raw) if raw is not None
             else client.post(f"/api/tables/{table_id}/action", headers=auth(token), json=body))
    assert reply.status_code >= 400, reply.text
    error = reply.json()
    assert error["type"] == "error" and error["code"] in ((code,) if isinstance(code, str) else code), error
    assert error["message"]


def test_forged_replayed_out_of_turn_illegal_and_malformed_actions_change_nothing(client: Any,
                                                                                     sqlite_url: str) -> None:
    table = new_table(client, bots=[], seed=None)  # four human seats: nothing moves unless a test seat acts
    tid = table["id"]
    tokens = {seat: join(client, tid, seat) for seat in range(4)}
    seat, data = first_decision(client, tid, tokens)
    other = (seat + 1) % 4
    legal = data["observation"]["legal_actions"]
    decision = data["decision"]
    before = stored(sqlite_url, tid)
    held = {hupai.parse(tile)[0] for tile in data["observation"]["hand"]}  # tiles in notation (schema 2)
    not_held = next(k for k in range(34) if k not in held)
    action = {k: v for k, v in legal[0].items() if k != "seat"}
    # Forged: naming the other human seat, with this seat's token.
    refused(client, tid, tokens[seat], {"decision": decision, "action": {**action, "seat": other}}, "forbidden")
    # Out of turn: the other seat has nothing to decide.
    refused(client, tid, tokens[other], {"decision": decision, "action": action}, "out_of_turn")
    # Illegal: a tile this seat does not hold.
    refused(client, tid, tokens[seat], {"decision": decision, "action": {"kind": "discard", "tile": not_held}},
            "illegal")
    # Stale: an old or a future decision number.
    refused(client, tid, tokens[seat], {"decision": decision + 1, "action": action}, "stale")
    refused(client, tid, tokens[seat], {"decision": True, "action": action}, "malformed")
    # Malformed, in every way we could think of.
    for body in ([1, 2], "discard", None, {"decision": decision},
                 {"decision": decision, "action": {"kind": "fly", "tile": 1}},
                 {"decision": decision, "action": {"kind": "discard", "tile": 10**30}},
                 {"decision": decision, "action": {"kind": "discard", "tile": "1x"}},  # "1m" is a tile now
                 {"decision": decision, "action": {"kind": "discard", "tile": 1, "extra": 1}},
                 {"decision": decision, "action": {"kind": "discard", "tiles": list(range(50))}},
                 {"decision": decision, "action": [["discard"]]}):
        refused(client, tid, tokens[seat], body, "malformed")
    refused(client, tid, tokens[seat], None, "malformed", raw=b"{not json")
    refused(client, tid, tokens[seat], None, "malformed", raw=b"[" * 2000 + b"]" * 2000)  # deep, but small
    # Oversized.
    refused(client, tid, tokens[seat], None, "too_large", raw=b" " * 5000 + b"{}")
    assert stored(sqlite_url, tid) == before
    # The real action is accepted once; sent again (a replay), it is refused.
    reply = client.post(f"/api/tables/{tid}/action", headers=auth(tokens[seat]),
                        json={"decision": decision, "action": action})
    assert reply.status_code == 200 and reply.json()["seq"] == 0
    after = stored(sqlite_url, tid)
    assert len(after[1]) >= 1 and after[1][0][1] == 0
    # (the seat has nothing to decide now, or a newer decision: refused either way, never applied twice)
    refused(client, tid, tokens[seat], {"decision": decision, "action": action}, ("stale", "out_of_turn"))
    assert stored(sqlite_url, tid)[1][:1] == after[1][:1]
    assert sum(1 for row in stored(sqlite_url, tid)[1] if row[1] == 0) == 1


def test_websocket_refusals_and_oversized_messages(client: Any, sqlite_url: str) -> None:
    table = new_table(client, bots=[], seed=None)  # nothing moves unless a test seat acts
    token = join(client, table["id"])
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        first = ws.receive_json()
        assert first["type"] == "state"
        before = stored(sqlite_url, table["id"])
        for message in ({"type": "action", "decision": first["decision"], "action": {"kind": "discard",
                                                                                     "seat": 1, "tile": 0}},
                        {"type": "action", "decision": -5, "action": {"kind": "pass"}},
                        {"type": "launch"}, {"type": "action", "decision": first["decision"], "action": 7}):
            ws.send_json(message)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] in ("forbidden", "stale", "malformed", "out_of_turn")
        ws.send_text("not json")
        assert ws.receive_json()["code"] == "malformed"
        assert stored(sqlite_url, table["id"]) == before
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
        reply = ws.receive_json()
        assert reply["code"] == "too_large"
        with pytest.raises(Exception):  # noqa: B017  (the server closed the connection: 1009)
            ws.receive_json()
    assert stored(sqlite_url, table["id"]) == before


def test_a_hello_is_required_first(client: Any) -> None:
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "action", "decision": 0, "action": {"kind": "pass"}})
        assert ws.receive_json()["code"] == "malformed"


def test_http_and_websocket_rate_limits(sqlite_url: str) -> None:
    with open_client(sqlite_url, http_rate=0.01, http_burst=5, ws_rate=0.01, ws_burst=3) as client:
        codes = [client.get("/api/tables").status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    with open_client(sqlite_url, ws_rate=0.01, ws_burst=3) as client:
        table = new_table(client, bots=[], seed=None)
        token = join(client, table["id"])
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": token})  # the hello counts too
            assert ws.receive_json()["type"] == "state"
            replies = []
            for _ in range(4):
                ws.send_json({"type": "ping"})
                replies.append(ws.receive_json())
            assert [r["type"] for r in replies[:2]] == ["pong", "pong"]
            assert replies[-1]["code"] == "rate_limited"
        # Accepted actions do not use up the budget (the game bounds their pace): a whole hand plays through.
        table = new_table(client, bots=[1, 2, 3])
        token = join(client, table["id"])
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "hello", "table": table["id"], "token": token})
            assert play_ws(ws, GreedyBot(1))[-1]["status"] == "match_over"


@pytest.mark.parametrize("rules", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_no_message_shows_another_seats_tiles_the_wall_or_the_seed(client: Any, sqlite_url: str,
                                                                    rules: str) -> None:
    # A think time: every bot move's state is pushed too (with none, those a next move supersedes at once are not).
    table = new_table(client, rules=rules, bots=list(range(1, hupai.rules.get(rules).num_players)), seed=21,
                      think_ms=30)
    token = join(client, table["id"])
    with client.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "hello", "table": table["id"], "token": token})
        messages = play_ws(ws, GreedyBot(5))
    with sqlite3.connect(sqlite_url[len("sqlite:///"):]) as db:
        (log,) = db.execute("SELECT log FROM hupai_hands WHERE table_id = ?", (table["id"],)).fetchone()
    states = [m for m in messages if m["type"] == "state"]
    assert len(states) > 10
    for message in states:
        assert_no_leak(message, log)
    assert every_window_asks_every_seat(log) > 3
    # The public endpoints: no seed, no tiles.
    for path in ("/api/tables", f"/api/tables/{table['id']}"):
        text = client.get(path).text
        assert str(json.loads(log)["setup"]["seed"]) not in text and '"snapshot"' not in text


def test_a_chosen_seed_never_deals_a_table_that_humans_share(client: Any) -> None:
    """A seed fixes every wall, so its sender knows every seat's tiles: refused where another human would play,
    and shown publicly (``seeded``) where it is accepted (one human seat, against bots)."""
    for rules, bots in (("guangdong", [2, 3]), ("guangdong", []), ("kawuxing", [2]), ("waihuzi", [])):
        reply = client.post("/api/tables", json={"rules": rules, "bots": bots, "seed": 5})
        assert reply.status_code == 400 and reply.json()["code"] == "malformed", reply.text
        assert "human seat" in reply.json()["message"]
    assert client.get("/api/tables").json()["tables"] == []
    seeded = new_table(client, bots=[1, 2, 3], seed=5)
    drawn = new_table(client, bots=[2, 3], seed=None)
    for table, flag in ((seeded, True), (drawn, False)):
        assert table["config"]["seeded"] is flag
        assert client.get(f"/api/tables/{table['id']}").json()["config"]["seeded"] is flag


def every_window_asks_every_seat(log: str) -> int:
    """Replay a stored hand: each claim or rob window asked every seat but the tile's source (and the source too
    for a Wai Huzi turned-up card), so whether a seat is asked, and so its decision and timer, shows nothing of
    anyone's tiles. Returns how many windows opened."""
    data = json.loads(log)
    game = Game.replay(data, upto=0)
    n, windows, left = game.table.num_players, 0, 0  # left: seats still to answer the window open before
    for action in data["actions"]:
        phase, seats, _, source = game.current
        window = phase in ("claim", "rob")
        if window and left <= 1:  # a new window: none was open, or the last answer closed it
            drawn = game.rules.family == "zipai" and game.table.offer_kind == "draw"
            assert set(seats) == {s for s in range(n) if s != source or drawn}, (phase, seats, source)
            windows += 1
        left = len(seats) if window else 0
        game.apply(action)
    return windows
