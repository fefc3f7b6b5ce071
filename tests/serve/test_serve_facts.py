"""A state message carries the observation's public facts as its rule system describes them (``facts``: labelled
items, tiles in the table's notation), and a table's info the Chinese and English names of its patterns
(``patterns``): a client shows both as they come, with no per-system code (issue 24 item 1)."""

from __future__ import annotations

from typing import Any

import hupai
from hupai.bots import GreedyBot
from hupai.rules.facts import Fact
from hupai.serve import wire
from serve_helpers import auth, join, new_table, play_http


def test_a_seat_s_state_carries_the_described_facts_and_the_table_its_pattern_names(client: Any) -> None:
    table = new_table(client, rules="yunxiao", bots=[1, 2, 3], seed=5)
    token = join(client, table["id"], 0)
    state = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    facts = [Fact.from_dict(fact) for fact in state["facts"]]
    game_rules = hupai.rules.get("yunxiao")
    observation = hupai.observation.Observation.from_json(state["observation"])  # unchanged: no facts inside
    assert facts == game_rules.describe_facts(observation.extras)
    gold = next(fact for fact in state["facts"] if fact["zh"] == "金")
    assert gold["en"] == "Gold" and gold["tiles"] == [hupai.jsonform.tile_out(observation.extras["gold"])]
    info = client.get(f"/api/tables/{table['id']}").json()
    assert info["patterns"]["qing_yi_se"] == {"zh": "清一色", "en": "All One Suit"}
    assert set(info["patterns"]) == set(game_rules.pattern_names())


def test_a_wai_huzi_state_writes_its_facts_cards_in_zipai_notation(client: Any) -> None:
    table = new_table(client, rules="waihuzi", bots=[1, 2], seed=4)
    token = join(client, table["id"], 0)
    state = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    shen = next(fact for fact in state["facts"] if fact["zh"] == "神")
    assert shen["tiles"][0].startswith(("x", "d")) and ("odd" in shen["text"] or "even" in shen["text"])
    play_http(client, table["id"], token, GreedyBot(3))
    ended = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert ended["status"] != "playing" and any(fact["zh"] == "神腰" for fact in ended["facts"])


def test_facts_are_described_again_when_the_extras_change_and_shared_while_equal() -> None:
    rules = hupai.rules.get("kawuxing")
    none = {"liangdao": (False,) * 3, "revealed": ((),) * 3, "chain": (-1, 0, 0)}
    first = wire.facts_to_wire(rules, none)
    assert wire.facts_to_wire(rules, dict(none)) is first  # equal extras: the same described facts
    declared = {**none, "liangdao": (False, True, False), "revealed": ((), (9, 9, 9), ())}
    facts = wire.facts_to_wire(rules, declared)
    assert facts != first and facts[0]["tiles"] == ["1p", "1p", "1p"] and facts[0]["seat"] == 1
    listed = {**none, "revealed": [[], [], []]}  # a list: never kept (it could change in place)
    assert wire.facts_to_wire(rules, listed) == first and wire.facts_to_wire(rules, listed) is not first
    other = hupai.rules.get("kawuxing")
    assert wire.facts_to_wire(other, none) == first and wire.facts_to_wire(other, none) is not first
