"""Snapshot formats (issue 30): ``snapshot()`` writes format 2 (the mahjong family's compact table,
:mod:`hupai.game.state.compact`); snapshots of format 1, written by earlier hupai, still restore, and a format-2 table
edited in any field is refused with InvalidState naming it.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import hupai
import pytest
from hupai import InvalidState
from hupai.bots import RandomBot
from hupai.game import SNAPSHOT_FORMAT, Game

V1 = Path(__file__).resolve().parent.parent / "fixtures" / "snapshots_v1.jsonl.gz"
STATES = [json.loads(line) for line in gzip.open(V1, "rt")]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _replayed(snapshot: dict[str, Any]) -> Game:
    """The game a snapshot's setup and actions give, played here (not restored)."""
    setup = snapshot["setup"]
    game = Game(snapshot["rules"], seed=setup["seed"], dealer=setup["dealer"], options=snapshot["options"],
                round_wind=setup["round_wind"], first_dealer=setup["first_dealer"], wall=setup.get("wall"),
                claim_window=setup.get("claim_window", "eligible"))
    for action in snapshot["actions"]:
        game.apply(hupai.actions.Action.from_compact(action))
    return game


def test_the_fixture_covers_every_system_and_window() -> None:
    assert len(STATES) == 240
    seen = {(s["snapshot"]["rules"], s["snapshot"]["table"]["phase"]) for s in STATES}
    for system in ("guangdong", "yunxiao", "kawuxing", "waihuzi"):
        assert {(system, "turn"), (system, "claim"), (system, "over")} <= seen
    assert {s["snapshot"]["format"] for s in STATES} == {"hupai-game-snapshot/1"}


@pytest.mark.parametrize("verify", [False, True])
def test_format_1_snapshots_of_the_reference_build_restore_with_its_observations_and_logs(verify: bool) -> None:
    for state in STATES:
        snapshot = state["snapshot"]
        game = Game.from_snapshot(copy.deepcopy(snapshot), verify=verify)
        n = game.num_players
        assert [_digest(game.observation(seat).to_json()) for seat in range(n)] == state["observations"]
        assert _digest(game.to_json()) == state["log"]


def test_a_restored_format_1_game_plays_on_and_saves_in_format_2() -> None:
    for index, state in enumerate(STATES[::4]):
        game = Game.from_snapshot(copy.deepcopy(state["snapshot"]))
        again = json.loads(json.dumps(game.snapshot()))
        assert again["format"] == SNAPSHOT_FORMAT
        assert Game.from_snapshot(again).to_json() == game.to_json() == _replayed(state["snapshot"]).to_json()
        if not game.over:
            hupai.game.play(game, [RandomBot(index + seat) for seat in range(game.num_players)])
            text = game.to_json()
            assert Game.replay(text).to_json() == text


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_a_format_2_restore_plays_on_as_the_original_does(name: str) -> None:
    """A table restored from format 2 is the engine's own: the same bots play it on to the same log as the game it
    was saved from (the core's lean turn writes the restored counters in place, so their types matter too)."""
    for seed in range(12):
        original = Game(name, seed=seed, claim_window="eligible")
        bots = [RandomBot(seed * 10 + seat) for seat in range(original.num_players)]
        for _ in range(5 + seed * 3):
            if original.over:
                break
            seat = original.seats_to_act[0]
            original.apply(bots[seat].choose(original.legal_actions(seat)))
        restored = Game.from_snapshot(json.loads(json.dumps(original.snapshot())))
        for game in (original, restored):
            hupai.game.play(game, [RandomBot(seed + seat) for seat in range(game.num_players)])
        assert restored.to_json() == original.to_json()


def test_format_2_round_trips_every_state_of_real_hands() -> None:
    for system in ("guangdong", "yunxiao", "kawuxing", "waihuzi"):
        rules = hupai.rules.get(system)
        for seed in range(6):
            game = Game(rules, seed=seed, dealer=seed % rules.num_players, claim_window=("all", "eligible")[seed % 2])
            bots = [RandomBot(seed * 10 + seat) for seat in range(rules.num_players)]
            while True:
                snap = json.loads(json.dumps(game.snapshot()))
                assert snap["format"] == SNAPSHOT_FORMAT
                restored = Game.from_snapshot(snap)
                assert json.loads(json.dumps(restored.snapshot())) == snap
                assert [restored.observation(s).to_json() for s in range(rules.num_players)] == [
                    game.observation(s).to_json() for s in range(rules.num_players)]
                assert restored.current == game.current
                if game.over:
                    break
                seat = game.seats_to_act[0]
                game.apply(bots[seat].choose(game.legal_actions(seat)))
            assert Game.from_snapshot(snap, verify=True).to_json() == game.to_json()


# -- format 2's table refused field by field ---------------------------------------------------------------------
def _at(system: str, phase: str, seed: int = 3) -> dict[str, Any]:
    """A format-2 snapshot of a seeded Guangdong or Yunxiao hand in ``phase`` with melds made."""
    for offset in range(200):
        game = Game(system, seed=seed + offset, claim_window="all")
        bots = [RandomBot(offset * 4 + seat) for seat in range(4)]
        while not game.over:
            if (game.table.phase == phase and len(game.actions) > 12 and not game.table.answers
                    and any(game.table.melds)):
                return json.loads(json.dumps(game.snapshot()))
            seat = game.seats_to_act[0]
            game.apply(bots[seat].choose(game.legal_actions(seat)))
    raise AssertionError(f"no {phase} state found")


TURN = _at("guangdong", "turn")
CLAIM = _at("guangdong", "claim")


def _refused(snap: dict[str, Any], field: str) -> str:
    with pytest.raises(InvalidState) as info:
        Game.from_snapshot(snap)
    assert field in str(info.value), str(info.value)
    return str(info.value)


def _with(snap: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(snap)
    out["table"][key] = value
    return out


def test_format_2_snapshots_restore() -> None:
    for snap in (TURN, CLAIM):
        assert json.loads(json.dumps(Game.from_snapshot(copy.deepcopy(snap)).snapshot())) == snap


@pytest.mark.parametrize(("key", "value", "field"), [
    ("hands", ["0" * 33, "0" * 34, "0" * 34, "0" * 34], "snapshot.table.hands[0]"),
    ("hands", "0" * 136, "snapshot.table.hands"),
    ("discards", [[1, 2], "", "", ""], "snapshot.table.discards[0]"),
    ("discards", ["z", "", "", ""], "snapshot.table.discards[0]"),
    ("missed", ["ba", "", "", ""], "snapshot.table.missed[0]"),
    ("meld_order", "0000000000", "snapshot.table.meld_order"),
    ("meld_order", 5, "snapshot.table.meld_order"),
    ("wall", [80, 70], "snapshot.table.wall"),
    ("wall", [True, 136], "snapshot.table.wall"),
    ("phase", "draw", "snapshot.table.phase"),
    ("drawn_from", 1, "snapshot.table.drawn_from"),
    ("extras", [], "snapshot.table.extras"),
    ("extras", {"x": 1}, "snapshot.table.extras"),
    ("state", [0] * 5, "snapshot.table.state"),
    ("melds", [["p00-0-"], [], [], []], "snapshot.table.melds[0][0]"),
    ("melds", [["c8000-"], [], [], []], "snapshot.table.melds[0][0]"),
    ("melds", [[["pung", [0, 0, 0], False, -1, False, -1]], [], [], []], "snapshot.table.melds[0][0]"),
])
def test_format_2_fields_of_the_wrong_shape_are_named(key: str, value: Any, field: str) -> None:
    _refused(_with(TURN, key, value), field)


def test_format_2_missing_and_unknown_fields_are_named() -> None:
    for key in TURN["table"]:
        snap = copy.deepcopy(TURN)
        del snap["table"][key]
        _refused(snap, "snapshot.table")
    _refused(_with(TURN, "pending", []), "snapshot.table")


def test_format_2_state_entries_are_range_checked() -> None:
    for index in range(len(TURN["table"]["state"])):
        for value in (-(1 << 63), 1 << 63, True, 1.0, None):
            snap = copy.deepcopy(TURN)
            snap["table"]["state"][index] = value
            _refused(snap, "snapshot.table")


def test_format_2_tile_conservation_and_hand_sizes() -> None:
    hands = list(TURN["table"]["hands"])
    seat = next(s for s in range(4) if "1" in hands[s])
    kind = hands[seat].index("1")
    other = next(k for k in range(34) if k != kind and hands[seat][k] == "0")
    moved = list(hands[seat])
    moved[kind], moved[other] = "0", "1"  # same size, a tile changed kind: one missing, one extra
    _refused(_with(TURN, "hands", [*hands[:seat], "".join(moved), *hands[seat + 1:]]), "tile conservation")
    dropped = list(hands[seat])
    dropped[kind] = "0"
    _refused(_with(TURN, "hands", [*hands[:seat], "".join(dropped), *hands[seat + 1:]]), "snapshot.table")
    wall = TURN["table"]["wall"]
    _refused(_with(TURN, "wall", [wall[0] + 1, wall[1]]), "snapshot.table")


def test_format_2_claim_window_comes_from_the_rules_and_the_actions() -> None:
    snap = copy.deepcopy(CLAIM)
    game = Game.from_snapshot(copy.deepcopy(snap))
    assert game.table.pending and not game.table.answers
    asked = sorted(game.table.pending)
    answered = copy.deepcopy(snap)
    answered["actions"].append(["pass", asked[0], -1, [], ""])
    restored = Game.from_snapshot(answered)
    assert list(restored.table.answers) == [asked[0]]
    twice = copy.deepcopy(answered)
    twice["actions"].append(["pass", asked[0], -1, [], ""])
    _refused(twice, "snapshot")
    if len(asked) == 1:
        return
    stranger = copy.deepcopy(snap)
    stranger["actions"].append(["win", asked[0], -1, [], "x"])
    _refused(stranger, "snapshot")


def test_format_2_tampered_against_its_own_log_needs_verify() -> None:
    hands = TURN["table"]["hands"]
    others = [s for s in range(4) if s != TURN["table"]["state"][0]]
    swapped = list(hands)
    swapped[others[0]], swapped[others[1]] = hands[others[1]], hands[others[0]]
    snap = _with(TURN, "hands", swapped)
    assert swapped != hands
    Game.from_snapshot(copy.deepcopy(snap))  # self-consistent: it loads
    with pytest.raises(InvalidState, match="snapshot.table.hands"):
        Game.from_snapshot(snap, verify=True)


def test_server_stored_format_1_snapshots_restore() -> None:
    """A table the server stored before format 2: its snapshot without the action list (``action_count``), the
    hand's action rows after it (:func:`hupai.serve.restore.restored_hand`)."""
    restore = pytest.importorskip("hupai.serve.restore")
    from hupai.serve import wire

    for state in STATES[::8]:
        snapshot = copy.deepcopy(state["snapshot"])
        rules = hupai.rules.get(snapshot["rules"], snapshot["options"])
        actions = [hupai.actions.Action.from_compact(a) for a in snapshot["actions"]]
        rows = [(seq, action.seat, wire.action_to_wire(action, rules)) for seq, action in enumerate(actions)]
        base = max(0, len(actions) - 3)  # the stored snapshot is three actions old: they are replayed after it
        stored = _replayed({**snapshot, "actions": snapshot["actions"][:base]})
        stored_snapshot = {**snapshot, "table": stored.table.to_json(), "action_count": base}
        del stored_snapshot["actions"]
        game = _replayed(snapshot)
        runtime = {"seq": len(actions), "hand": 0, "status": "over" if game.over else "playing"}
        restored, _, after = restore.restored_hand(stored_snapshot, runtime, rows, rules)
        assert restored.to_json() == game.to_json()
        assert len(after) == len(actions) - base
        assert _digest(restored.to_json()) == state["log"]
