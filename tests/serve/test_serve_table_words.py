"""What the browser table's result screen and lobby read from the server (issue 33): a finished hand's state
message carries ``scoring`` (each win's score details: how it counts), ``null`` while the hand is played; ``GET
/api/rules`` gives each rule system's house rules as choices, the rule book's reading first."""

from __future__ import annotations

import json
import time
from typing import Any

import hupai
from hupai.bots import GreedyBot
from hupai.serve import wire
from serve_helpers import auth, join, new_table


def _finished(rules: str, seed: int) -> hupai.Game:
    game = hupai.Game(rules, seed=seed)
    bot = GreedyBot()
    while not game.over:
        seat = next(s for s in range(game.rules.num_players) if game.legal_actions(s))
        game.apply(bot.act(game.observation(seat)))
    return game


def test_scoring_gives_each_wins_details_once_the_hand_is_over() -> None:
    assert wire.scoring_to_wire(None) is None
    for seed in range(1, 40):  # the first won Wai Huzi hand: its groups with their 息, then 息 x 名堂 x 元
        game = _finished("waihuzi", seed)
        if game.result is not None and game.result.wins:
            break
    assert game.result is not None and game.result.wins
    scoring = wire.scoring_to_wire(game.result)
    assert scoring is not None
    assert [entry["seat"] for entry in scoring] == [win.seat for win in game.result.wins]
    details = scoring[0]["details"]
    assert sum(part["xi"] for part in details["parts"]) <= details["xi"]
    assert details["xi"] * details["mingtang_factor"] * details["yuan_factor"] == details["score"]
    json.dumps(scoring)  # plain JSON


def test_the_state_message_carries_scoring_only_when_the_hand_is_over(client: Any) -> None:
    table = new_table(client, rules="guangdong", bots=[1, 2, 3], hands=2, claim_seconds=0)
    token = join(client, table["id"], 0)
    state = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert state["status"] != "playing" or state["scoring"] is None
    # The seat plays its first win, pass or discard until the hand ends.
    deadline = time.monotonic() + 60
    while state["status"] == "playing":
        assert time.monotonic() < deadline
        decision = state["decision"]
        if decision is not None:
            action = next(a for a in state["observation"]["legal_actions"] if a["kind"] in ("win", "pass", "discard"))
            client.post(f"/api/tables/{table['id']}/action", headers=auth(token),
                        json={"decision": decision, "action": action})
        state = client.get(f"/api/tables/{table['id']}/state", headers=auth(token),
                           params={"after": state["version"], "wait": 2}).json()
    result = state["observation"]["result"]
    assert [entry["seat"] for entry in state["scoring"]] == [win["seat"] for win in result["wins"]]
    for entry in state["scoring"]:  # Guangdong: the share each payer pays and the rule that says who pays
        assert {"share", "rule", "paid_by"} <= set(entry["details"])


def test_the_rules_list_gives_house_rules_as_choices(client: Any) -> None:
    systems = {r["name"]: r for r in client.get("/api/rules").json()["rules"]}
    assert systems["guangdong"]["house_rules"] == []
    house = {h["name"]: h for h in systems["kawuxing"]["house_rules"]}
    assert house["liangdao_discarder"]["choices"] == ["value", "double"]
    assert house["liangdao_discarder"]["default"] == "value" and house["liangdao_discarder"]["rule"] == "KW-18"
    assert all(h["doc"] and h["choices"][0] == h["default"] for h in systems["waihuzi"]["house_rules"])
