"""Saved games are read as hostile input (issue 9.2, 9.3): ``Game.from_snapshot`` and ``Game.replay`` load exactly
what ``snapshot()`` / ``to_json()`` write and refuse anything else with ``hupai.InvalidState`` naming the field;
games draw their seed from the OS when none is given; only ``observation(seat)`` may go to a client.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import hupai
import pytest
from hidden import blind_twin
from hupai import HupaiError, InvalidState
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, Match, play

DEEP_TEXT = "[" * 10_000 + "]" * 10_000


def _deep(depth: int = 10_000) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _game_at(system: str, seed: int, phase: str, min_actions: int = 6) -> Game:
    """A seeded game stopped the first time it reaches ``phase`` after ``min_actions`` actions."""
    game = Game(system, seed=seed, dealer=seed % 4)
    bots = [GreedyBot(seed + s) for s in range(4)]
    while not game.over and not (game.table.phase == phase and len(game.actions) >= min_actions
                                 and not game.table.answers):
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
    assert game.table.phase == phase or phase == "over"
    return game


def _snap(game: Game) -> dict[str, Any]:
    """The game's snapshot in format 1 (the full table, as hupai before format 2 wrote it): the checks named here
    are format 1's; tests/game/test_snapshot_format.py checks format 2's."""
    return json.loads(json.dumps({**game.snapshot(), "format": "hupai-game-snapshot/1", "table": game.table.to_json()}))


def _refused(data: Any, field: str, *, log: bool = False, **kwargs: Any) -> str:
    with pytest.raises(InvalidState) as info:
        Game.replay(data, **kwargs) if log else Game.from_snapshot(data, **kwargs)
    message = str(info.value)
    assert field in message, message
    return message


@pytest.fixture(scope="module")
def turn_snap() -> dict[str, Any]:
    return _snap(_game_at("guangdong", 11, "turn"))


@pytest.fixture(scope="module")
def claim_snap() -> dict[str, Any]:
    return _snap(_game_at("guangdong", 5, "claim"))


@pytest.fixture(scope="module")
def yunxiao_snap() -> dict[str, Any]:
    return _snap(_game_at("yunxiao", 3, "turn", 20))


@pytest.fixture(scope="module")
def log_text() -> str:
    game = _game_at("guangdong", 2, "over")
    return game.to_json()


# -- text, size, depth, versions ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["[]", "{", "", "null", "1", '"x"', "[1, 2]", "{\"format\": 1}", DEEP_TEXT,
                                  "{\"a\": " * 5000 + "1" + "}" * 5000, "\x00", "NaN"])
def test_replay_of_non_logs_raises_invalid_state(text: str) -> None:
    with pytest.raises(InvalidState):
        Game.replay(text)
    with pytest.raises(InvalidState):
        Game.replay(text.encode())


@pytest.mark.parametrize("data", [[], None, 5, "x", (1,), {"format": "hupai-game-log/1"}])
def test_replay_and_restore_of_non_objects_raise_invalid_state(data: Any) -> None:
    for load in (Game.replay, Game.from_snapshot):
        with pytest.raises(InvalidState):
            load(data)


def test_a_100_mb_text_is_refused_before_parsing() -> None:
    text = "[" + " " * 100_000_000 + "]"
    assert "more than the" in _refused(text, "characters", log=True)  # the size, not a parse error


def test_huge_lists_and_deep_nesting_are_refused_without_recursion(turn_snap: dict[str, Any]) -> None:
    for path, value in [(("actions",), [["pass", 0, -1, [], ""]] * 5_000_000), (("table", "hands", 0), [0] * 10**7),
                        (("table", "extras"), {"x": _deep()}), (("options",), {"louhu": _deep()}),
                        (("table", "extras"), {"x": {"y": _deep()}}), (("table", "extras"), {"x": {1, 2}}),
                        (("table", "hands"), _deep()), (("setup", "seed"), _deep()), (("table", "pending"), _deep()),
                        (("actions", 0), _deep())]:
        snap = copy.deepcopy(turn_snap)
        target = snap
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        _refused(snap, "snapshot")


def test_deep_nesting_in_a_log_dict_is_refused(log_text: str) -> None:
    for key in ("actions", "setup", "options", "events"):
        log = json.loads(log_text)
        log[key] = _deep() if key != "actions" else [_deep()]
        _refused(log, "log", log=True)


def test_versions_are_checked_by_version(turn_snap: dict[str, Any], log_text: str) -> None:
    snap = dict(turn_snap, format="hupai-game-snapshot/3")
    assert "version '3'" in _refused(snap, "snapshot.format")
    log = dict(json.loads(log_text), format="hupai-game-log/0")
    assert "version '0'" in _refused(log, "log.format", log=True)
    _refused(dict(turn_snap, format="something-else/9"), "snapshot.format")
    _refused(dict(turn_snap, format=None), "snapshot.format")


# -- schema and types ---------------------------------------------------------------------------------------------
def _tampered(snap: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(snap)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


@pytest.mark.parametrize(("path", "value", "field"), [
    (("table", "drawn"), True, "snapshot.table.drawn"),                 # a bool is not an int
    (("table", "drawn"), 3.0, "snapshot.table.drawn"),
    (("table", "turn_seat"), 7, "snapshot.table.turn_seat"),
    (("table", "turn_seat"), "0", "snapshot.table.turn_seat"),
    (("table", "phase"), "draw", "snapshot.table.phase"),
    (("table", "phase"), ["turn"], "snapshot.table.phase"),
    (("table", "n"), 3, "snapshot.table.n"),
    (("table", "dealer"), 2, "snapshot.table.dealer"),
    (("table", "hands", 0, 0), -1, "snapshot.table.hands[0]"),
    (("table", "hands", 0), [0] * 33, "snapshot.table.hands[0]"),
    (("table", "missed_all", 0), 0, "snapshot.table.missed_all"),
    (("table", "melds", 0), [["pung", [1, 1], False, 2, False, 1]], "snapshot.table.melds[0][0]"),
    (("table", "discards", 1), [34], "snapshot.table.discards[1]"),
    (("table", "extras"), [], "snapshot.table.extras"),
    (("table", "wall", 0, 0), 33, "snapshot.table.wall[0]"),
    (("setup", "seed"), -1, "snapshot.setup.seed"),
    (("setup", "seed"), 2**64, "snapshot.setup.seed"),
    (("setup", "dealer"), True, "snapshot.setup.dealer"),
    (("actions", 0), ["discard", 0, 99, [], ""], "snapshot.actions[0]"),
    (("actions", 0), {"kind": "discard"}, "snapshot.actions[0]"),
    (("rules",), "mahjong-soul", "snapshot.rules"),
    (("options",), {"louhu": "never"}, "snapshot.options"),
])
def test_wrong_types_and_values_are_named(turn_snap: dict[str, Any], path: tuple[Any, ...], value: Any,
                                          field: str) -> None:
    _refused(_tampered(turn_snap, path, value), field)


def test_missing_and_unknown_fields_are_named(turn_snap: dict[str, Any]) -> None:
    for key in ("table", "actions", "setup"):
        snap = copy.deepcopy(turn_snap)
        del snap[key]
        assert key in _refused(snap, "missing")
    snap = copy.deepcopy(turn_snap)
    del snap["table"]["calls"]
    assert "calls" in _refused(snap, "snapshot.table")
    snap = copy.deepcopy(turn_snap)
    snap["table"]["cheat"] = 1
    assert "cheat" in _refused(snap, "snapshot.table")


# -- tiles, seats, phases ---------------------------------------------------------------------------------------
def test_tile_conservation(turn_snap: dict[str, Any]) -> None:
    hands = turn_snap["table"]["hands"]
    kind = next(k for k in range(34) if hands[1][k])
    other = next(k for k in range(34) if hands[2][k] and k != kind)
    extra = copy.deepcopy(turn_snap)  # seat 2 trades one of its tiles for another copy of seat 1's: sizes hold
    extra["table"]["hands"][2][kind] += 1
    extra["table"]["hands"][2][other] -= 1
    assert "tile conservation" in _refused(extra, "snapshot.table")
    eight = _tampered(turn_snap, ("table", "hands", 0), [0] * 34)
    eight["table"]["hands"][0][0] = 4
    eight["table"]["hands"][0][1] = 4
    _refused(eight, "snapshot.table")


def test_wall_range_and_seat_counters(turn_snap: dict[str, Any]) -> None:
    wall = turn_snap["table"]["wall"]
    _refused(_tampered(turn_snap, ("table", "wall", 2), wall[1] - 1), "snapshot.table.wall[2]")  # tail before head
    _refused(_tampered(turn_snap, ("table", "wall", 1), wall[1] + 1), "snapshot.table")
    made = turn_snap["table"]["discards_made"]
    _refused(_tampered(turn_snap, ("table", "discards_made", 0), made[0] + 1), "snapshot.table.discards_made[0]")
    _refused(_tampered(turn_snap, ("table", "draws", 0), 99), "snapshot.table.draws")
    _refused(_tampered(turn_snap, ("table", "payments", 0), 5), "snapshot.table.payments")


def test_claim_window_must_be_answerable(claim_snap: dict[str, Any]) -> None:
    table = claim_snap["table"]
    assert table["phase"] == "claim" and table["pending"]
    closed = _tampered(claim_snap, ("table", "pending"), [])
    closed["table"]["answers"] = []
    _refused(closed, "snapshot.table.pending")
    seat, options = table["pending"][0]
    _refused(_tampered(claim_snap, ("table", "answers"), [[seat, options[-1]]] * 2), "snapshot.table.answers")
    forged = [[seat, [["chow", seat, table["last_discard"], [0, 1, 2], ""], ["pass", seat, -1, [], ""]]]]
    forged_window = _tampered(claim_snap, ("table", "pending"), forged)
    forged_window["table"]["answers"] = []
    _refused(forged_window, "snapshot.table.pending")
    _refused(_tampered(claim_snap, ("table", "phase"), "turn"), "snapshot.table")
    _refused(_tampered(claim_snap, ("table", "discarder"), (table["discarder"] + 1) % 4), "snapshot.table")


def test_yunxiao_gold_and_counters(yunxiao_snap: dict[str, Any]) -> None:
    extras = yunxiao_snap["table"]["extras"]
    _refused(_tampered(yunxiao_snap, ("table", "extras", "gold"), (extras["gold"] + 1) % 34),
             "snapshot.table.extras")
    _refused(_tampered(yunxiao_snap, ("table", "extras", "you"), [0, 0, 9, 0]), "snapshot.table.extras.you")
    _refused(_tampered(yunxiao_snap, ("table", "extras", "kongs"), 2), "snapshot.table.extras.kongs")
    _refused(_tampered(yunxiao_snap, ("table", "extras", "gold"), "x"), "snapshot.table.extras")


def test_a_state_that_contradicts_its_log_needs_verify(turn_snap: dict[str, Any]) -> None:
    """Swapping two waiting seats' hands keeps every count right: only the replay check sees it."""
    snap = copy.deepcopy(turn_snap)
    table = snap["table"]
    a, b = [s for s in range(4) if s != table["turn_seat"] and not table["melds"][s]][:2]
    table["hands"][a], table["hands"][b] = table["hands"][b], table["hands"][a]
    game = Game.from_snapshot(snap)  # structurally sound, so it loads by default
    assert game.table.hands[a] == bytearray(turn_snap["table"]["hands"][b])
    _refused(snap, "snapshot.table.hands: not what the snapshot's setup and actions give", verify=True)


def test_verify_accepts_what_snapshot_writes(turn_snap: dict[str, Any], claim_snap: dict[str, Any]) -> None:
    for snap in (turn_snap, claim_snap):
        game = Game.from_snapshot(snap, verify=True)
        assert _snap(game) == snap
        assert Game.from_snapshot(game.snapshot()).to_json() == game.to_json()


def test_a_forged_earlier_action_is_refused_when_history_is_rebuilt(turn_snap: dict[str, Any]) -> None:
    snap = copy.deepcopy(turn_snap)
    first = snap["actions"][0]
    assert first[0] == "discard"
    held = snap["table"]["hands"][first[1]]
    first[2] = next(k for k in range(34) if k != first[2] and not held[k])  # a tile the seat never held
    game = Game.from_snapshot(snap)
    with pytest.raises(InvalidState, match=r"snapshot\.actions\[0\]"):
        game.events  # noqa: B018 (the property rebuilds the history)
    _refused(snap, "snapshot.actions[0]", verify=True)


def test_a_finished_hand_is_always_checked_against_its_log() -> None:
    game = _game_at("guangdong", 4, "over")
    snap = _snap(game)
    assert Game.from_snapshot(snap).result == game.result
    snap["table"]["payments"] = [1, -1, 0, 0]
    _refused(snap, "snapshot.table.payments")


# -- logs -----------------------------------------------------------------------------------------------------
def test_an_illegal_action_in_a_log_is_invalid_state_naming_it(log_text: str) -> None:
    log = json.loads(log_text)
    log["actions"][3] = {"kind": "discard", "seat": log["actions"][3]["seat"], "tile": 33}
    log.pop("events")
    log.pop("result")
    message = _refused(log, "log.actions[3]", log=True)
    assert "discard" in message
    log["actions"][3] = {"kind": "discard", "seat": 0, "tile": "1m"}
    _refused(log, "log.actions[3]", log=True)


def test_events_and_result_must_be_what_the_actions_give(log_text: str) -> None:
    log = json.loads(log_text)
    log["events"][5]["tile"] = (log["events"][5].get("tile", 0) + 1) % 34
    _refused(log, "log.events", log=True)
    log = json.loads(log_text)
    log["result"]["payments"][0] += 1
    _refused(log, "log.result", log=True)
    log = json.loads(log_text)
    del log["events"], log["result"]
    assert Game.replay(log).to_json() == log_text  # derived fields may be left out


def test_replay_checks_upto_and_the_given_rules(log_text: str) -> None:
    for upto in (-1, True, 1.5, "3"):
        with pytest.raises(HupaiError):
            Game.replay(log_text, upto=upto)
    _refused(log_text, "log.rules", log=True, rules=hupai.rules.get("yunxiao"))
    _refused(log_text, "log.options", log=True, rules=hupai.rules.get("guangdong", {"louhu": "any_tile"}))


# -- seeds and secrets (issue 9.3) ----------------------------------------------------------------------------
def test_no_fixed_default_seed_and_the_drawn_seed_is_recorded() -> None:
    games = [Game("guangdong") for _ in range(3)]
    seeds = {game.setup["seed"] for game in games}
    assert len(seeds) == 3  # drawn from the OS: equal 64-bit draws would be a broken generator
    assert all(0 <= seed < 2**64 for seed in seeds)
    for game in games:
        play(game, [RandomBot(s) for s in range(4)])
        assert Game.replay(game.to_json()).to_json() == game.to_json()
    assert len({Match("yunxiao").seed for _ in range(3)}) == 3
    with pytest.raises(HupaiError):
        Game("guangdong", seed=2**64)
    with pytest.raises(HupaiError):
        Match("guangdong", seed=-1)


@pytest.mark.parametrize("system", ["guangdong", "yunxiao"])
def test_observations_hold_neither_the_seed_nor_other_seats_concealed_tiles(system: str) -> None:
    """Only ``observation(seat)`` goes to a client: it must not show the seed, and changing another seat's
    concealed tiles (swapped with unseen wall tiles) must not change it, in every phase (claim windows ask every
    seat: ``claim_window="all"``, the default) and after the end."""
    for seed in (2**63 + 12345, 2**64 - 7):
        game = Game(system, seed=seed, dealer=seed % 4)
        bots = [RandomBot(s) for s in range(4)]
        step = 0
        while True:
            for seat in range(4):
                text = json.dumps(game.observation(seat).to_dict(), ensure_ascii=False)
                assert str(seed) not in text and '"seed"' not in text
            if step % 3 == 0:
                _assert_blind_to_other_hands(game)
            if game.over:
                _assert_blind_to_other_hands(game)
                break
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
            step += 1


def _assert_blind_to_other_hands(game: Game) -> None:
    for seat in range(4):
        other = (seat + 1) % 4
        twin = blind_twin(game, other)
        assert twin.observation(seat) == game.observation(seat), f"seat {seat} sees seat {other}'s hand"
