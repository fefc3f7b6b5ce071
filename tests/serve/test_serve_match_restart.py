"""A match stored whole (issue 20 item 3): a server restarted in hand 2 of a Wai Huzi match resumes it with the
session's 神 (fixed after hand 1, WH-5) and finishes it; before, the match was rebuilt from the creation options,
lost the 神, and ``Match.record`` refused the hand at its last action, so the table stalled for ever."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hupai.bots import GreedyBot
from hupai.game import Game
from serve_helpers import auth, join, new_table, open_client, play_http
from test_serve_storage import storage_call


def _stored_match(client: Any, table_id: str) -> dict[str, Any]:
    (stored,) = storage_call(client, "load_tables", table_id)
    match: dict[str, Any] = stored.match
    return match


def _finish(client: Any, table_id: str, token: str) -> dict[str, Any]:
    """Play seat 0 through every remaining hand (saying ``next`` between them); returns the last state."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        play_http(client, table_id, token, GreedyBot(5))
        state: dict[str, Any] = client.get(f"/api/tables/{table_id}/state", headers=auth(token)).json()
        if state["status"] == "match_over":
            return state
        if state["status"] == "hand_over":
            reply = client.post(f"/api/tables/{table_id}/next", headers=auth(token), json={})
            assert reply.status_code in (200, 204), reply.text
    raise AssertionError("the match did not end in time")


@pytest.mark.rule("WH-5")
def test_a_wai_huzi_table_restarted_in_hand_2_keeps_its_shen_and_finishes(sqlite_url: str) -> None:
    with open_client(sqlite_url) as client:
        table = new_table(client, rules="waihuzi", bots=[1, 2], hands=3, seed=20)
        table_id = table["id"]
        token = join(client, table_id, 0)
        play_http(client, table_id, token, GreedyBot(1))  # hand 1 to its end
        assert client.post(f"/api/tables/{table_id}/next", headers=auth(token), json={}).status_code in (200, 204)
        play_http(client, table_id, token, GreedyBot(2), actions=2)  # into hand 2
        before = client.get(f"/api/tables/{table_id}/state", headers=auth(token)).json()
        assert before["hand"] == 1 and before["status"] == "playing"
        stored = _stored_match(client, table_id)
        shen = stored["options"]["shen"]
        assert shen in ("odd", "even") and table["config"]["options"]["shen"] is None
    with open_client(sqlite_url) as client:
        after = client.get(f"/api/tables/{table_id}/state", headers=auth(token)).json()
        assert after["hand"] == 1 and after["seq"] >= before["seq"]  # the bots may have played on before the stop
        assert client.app.state.host.tables[table_id].match.rules.options_dict()["shen"] == shen
        final = _finish(client, table_id, token)
        assert final["hand"] == 2
        assert _stored_match(client, table_id)["options"]["shen"] == shen
        hands = storage_call(client, "hands", table_id)
        assert [hand for hand, _, _ in hands] == [0, 1, 2]
        scores = client.get(f"/api/tables/{table_id}").json()["scores"]
        assert scores == [sum(result["payments"][seat] for _, _, result in hands) for seat in range(3)]
        for hand, log, result in hands:  # each finished hand replays, dealt with the session's 神 after the first
            game = Game.replay(log)
            assert game.result is not None and game.result.to_dict() == result
            assert hand == 0 or game.rules.options_dict()["shen"] == shen


def test_a_match_row_stored_before_the_format_tag_is_read_and_regains_its_shen() -> None:
    """A row a server before this one wrote (no format tag) of a Wai Huzi session that
    lost its 神 in a restart: the 神 comes back from the current hand's snapshot, dealt with it."""
    from hupai import InvalidState
    from hupai.game import Match, play
    from hupai.rules import get
    from hupai.serve.tables import _restore_match

    match = Match("waihuzi", seed=3)
    game = match.new_game()
    play(game, [GreedyBot(seat) for seat in range(3)])
    match.record(game)
    current = match.new_game()
    old_form = {key: value for key, value in match.to_dict().items() if key != "format"}  # before the tag
    legacy = {**old_form, "options": {**old_form["options"], "shen": None}}
    restored = _restore_match(get("waihuzi"), legacy, current.snapshot())
    assert restored.to_dict() == match.to_dict()
    assert _restore_match(get("waihuzi"), old_form).to_dict() == match.to_dict()
    with pytest.raises(InvalidState, match=r"match\.options\.shen"):
        _restore_match(get("waihuzi"), legacy)  # no snapshot to take it from: refused, never dealt on without it
    with pytest.raises(InvalidState, match="is not the table's"):
        _restore_match(get("waihuzi", {"min_huxi": 15}), match.to_dict())
