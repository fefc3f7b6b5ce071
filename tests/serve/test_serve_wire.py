"""Wai Huzi actions on the wire and in storage in zipai notation (issue 20 item 8): a zipai table writes its
cards as ``x1``..``d10`` (``"d3"`` was stored as ``"4p"``), reads them back, and refuses mahjong notation with a
clear error (and a mahjong table refuses zipai notation): the two share indices, so one read as the other would
play another card."""

from __future__ import annotations

from typing import Any

import hupai
import pytest
from hupai.actions import Action
from hupai.bots import GreedyBot
from hupai.jsonform import CARD_NAMES
from hupai.serve import wire
from hupai.serve.wire import WireError
from serve_helpers import auth, join, new_table, play_http
from test_serve_storage import storage_call

WAIHUZI = hupai.rules.get("waihuzi")
GUANGDONG = hupai.rules.get("guangdong")


def test_a_zipai_action_is_written_in_zipai_notation_and_read_back() -> None:
    chi = Action("chow", 1, 12, (11, 12, 13))  # 吃 d3 with d2 d4
    data = wire.action_to_wire(chi, WAIHUZI)
    assert data == {"kind": "chow", "seat": 1, "tile": "d3", "tiles": ["d2", "d3", "d4"]}
    assert wire.action_from_wire(data, 1, WAIHUZI) == chi
    assert wire.action_from_store(data, WAIHUZI) == chi
    assert wire.action_to_wire(Action("discard", 0, 12), GUANGDONG) == {"kind": "discard", "seat": 0, "tile": "4p"}
    assert wire.action_from_wire({"kind": "discard", "tile": 12}, 0, WAIHUZI) == Action("discard", 0, 12)


@pytest.mark.parametrize(("rules", "data", "message"), [
    (WAIHUZI, {"kind": "discard", "tile": "4p"},
     r"action tile: Wai Huzi reads zipai cards such as 'x2' or 'd10' \(or 二, 贰\); '4p' is a mahjong tile"),
    (WAIHUZI, {"kind": "chow", "tile": "d3", "tiles": ["d2", "3p", "d4"]}, r"tiles\[1\]: .*'3p' is a mahjong tile"),
    (WAIHUZI, {"kind": "discard", "tile": 20}, r"tile 20 is not a card kind in 0\.\.19"),
    (WAIHUZI, {"kind": "discard", "tile": "d11"}, r"'d11' is not a tile: Wai Huzi reads zipai cards"),
    (GUANGDONG, {"kind": "discard", "tile": "d3"},
     r"action tile: a mahjong game reads tiles such as '2m' or '7z' \(or 二万, 中\); 'd3' is a zipai card"),
    (GUANGDONG, {"kind": "chow", "tile": "x2", "tiles": ["1m", "2m", "3m"]}, r"'x2' is a zipai card"),
])
def test_the_other_familys_notation_is_refused_clearly(rules: Any, data: dict[str, Any], message: str) -> None:
    with pytest.raises(WireError, match=message) as caught:
        wire.action_from_wire(data, 0, rules)
    assert caught.value.code == "malformed"


def test_a_stored_row_without_its_seat_is_refused() -> None:
    with pytest.raises(WireError, match="with its seat"):
        wire.action_from_store({"kind": "discard", "tile": "d3"}, WAIHUZI)


def _cards(action: dict[str, Any]) -> list[Any]:
    return [action[key] for key in ("tile",) if key in action] + list(action.get("tiles", ()))


def test_a_wai_huzi_table_stores_its_actions_in_zipai_notation(client: Any) -> None:
    table = new_table(client, rules="waihuzi", bots=[1, 2], seed=4)
    token = join(client, table["id"], 0)
    play_http(client, table["id"], token, GreedyBot(3))
    rows = storage_call(client, "actions", table["id"], 0)
    cards = [card for _, _, action in rows for card in _cards(action)]
    assert cards and all(card in CARD_NAMES for card in cards)
    ((_, log, _),) = storage_call(client, "hands", table["id"])
    game = hupai.Game.replay(log)
    assert [wire.action_from_store(action, WAIHUZI) for _, _, action in rows] == game.actions


def test_a_wai_huzi_table_refuses_an_action_in_mahjong_notation_and_stays_as_it_was(client: Any) -> None:
    table = new_table(client, rules="waihuzi", bots=[1, 2], seed=4)
    token = join(client, table["id"], 0)
    state = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert state["decision"] is not None  # seat 0 deals (WH-6): its first move
    legal = state["observation"]["legal_actions"]
    discard = next(a for a in legal if a["kind"] == "discard")
    assert discard["tile"] in CARD_NAMES
    as_mahjong = {**discard, "tile": str(hupai.jsonform.tile_out(CARD_NAMES.index(discard["tile"])))}
    reply = client.post(f"/api/tables/{table['id']}/action", headers=auth(token),
                        json={"decision": state["decision"], "action": as_mahjong})
    assert reply.status_code == 400 and reply.json()["code"] == "malformed"
    assert "is a mahjong tile" in reply.json()["message"]
    again = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert again["seq"] == 0 and again["observation"] == state["observation"]
    reply = client.post(f"/api/tables/{table['id']}/action", headers=auth(token),
                        json={"decision": state["decision"], "action": discard})
    assert reply.status_code == 200, reply.text
