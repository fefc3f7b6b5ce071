"""Fuzzing saved games (issue 9.2, 9.4): tampered snapshots, logs and JSON text either load into a game that passes
the validation invariants and plays on, or raise a ``hupai.HupaiError`` (``InvalidState``); never another
exception. Illegal or forged actions raise ``IllegalAction`` and leave the game exactly as it was.

Brief under ``make test``; ``make fuzz`` sets ``HYPOTHESIS_PROFILE=fuzz`` (``tests/conftest.py``) for long runs.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hupai import HupaiError, IllegalAction, InvalidState
from hupai.actions import Action
from hupai.bots import RandomBot
from hupai.game import Game, play
from hupai.game.game import SNAPSHOT_FORMATS
from hupai.game.state.snapshot import check_snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from statefuzz import deep, mutate, sample_states

LONG = settings().max_examples > 1000  # the fuzz profile


def _examples(brief: int) -> settings:
    return settings(max_examples=settings().max_examples if LONG else brief, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


SNAPSHOTS, LOGS = sample_states()


def _plays_on(game: Game) -> None:
    """The loaded game passes the checks a restore makes, plays to its end, and its log replays (or, for a
    snapshot edited against its own log and loaded without ``verify``, is refused as InvalidState)."""
    check_snapshot(json.loads(json.dumps(game.snapshot())), SNAPSHOT_FORMATS, None)
    play(game, [RandomBot(seat) for seat in range(game.rules.num_players)])
    assert game.over and game.result is not None
    try:
        text = game.to_json()
    except InvalidState:
        return  # a forged earlier action, found when the history is rebuilt
    try:
        assert Game.replay(text).to_json() == text
    except InvalidState:
        pass  # the state had been edited against its log: its continuation does not replay


def _mutated(base: str, rng: random.Random) -> dict[str, Any]:
    data = json.loads(base)
    for _ in range(rng.choice([1, 1, 2, 3])):
        mutate(data, rng)
    return data


@_examples(60)
@given(st.integers(0, len(SNAPSHOTS) - 1), st.randoms(use_true_random=False))
def test_tampered_snapshots_load_valid_or_raise_invalid_state(index: int, rng: random.Random) -> None:
    data = _mutated(SNAPSHOTS[index], rng)
    try:
        game = Game.from_snapshot(data)
    except HupaiError:
        return
    _plays_on(game)


V1 = [json.dumps(json.loads(line)["snapshot"]) for line in gzip.open(
    Path(__file__).resolve().parent.parent / "fixtures" / "snapshots_v1.jsonl.gz", "rt")]


@_examples(60)
@given(st.integers(0, len(V1) - 1), st.randoms(use_true_random=False), st.booleans())
def test_tampered_format_1_snapshots_load_valid_or_raise_invalid_state(index: int, rng: random.Random,
                                                                       verify: bool) -> None:
    """Format 1 (the full table, written by hupai before format 2; every system) is read as hostile too."""
    data = _mutated(V1[index], rng)
    try:
        game = Game.from_snapshot(data, verify=verify)
    except HupaiError:
        return
    _plays_on(game)


@_examples(30)
@given(st.integers(0, len(SNAPSHOTS) - 1), st.randoms(use_true_random=False))
def test_verified_tampered_snapshots_are_exactly_their_log(index: int, rng: random.Random) -> None:
    data = _mutated(SNAPSHOTS[index], rng)
    try:
        game = Game.from_snapshot(data, verify=True)
    except HupaiError:
        return
    expected = json.loads(json.dumps(data))
    expected["options"] = game.rules.options_dict()  # an option left out means its default (older logs)
    assert json.loads(json.dumps(game.snapshot())) == expected
    play(game, [RandomBot(seat) for seat in range(game.rules.num_players)])
    text = game.to_json()
    assert Game.replay(text).to_json() == text


@_examples(40)
@given(st.integers(0, len(LOGS) - 1), st.randoms(use_true_random=False))
def test_tampered_logs_replay_or_raise_invalid_state(index: int, rng: random.Random) -> None:
    data = _mutated(LOGS[index], rng)
    try:
        game = Game.replay(data)
    except HupaiError:
        return
    play(game, [RandomBot(seat) for seat in range(game.rules.num_players)])
    text = game.to_json()
    assert Game.replay(text).to_json() == text


@_examples(40)
@given(st.integers(0, len(LOGS) - 1), st.integers(0, 10**6), st.sampled_from(["cut", "flip", "insert", "nest"]),
       st.text(max_size=3))
def test_tampered_log_text_replays_or_raises_invalid_state(index: int, where: int, how: str, text: str) -> None:
    log = LOGS[index]
    at = where % (len(log) + 1)
    if how == "cut":
        log = log[:at]
    elif how == "flip":
        log = log[:at] + (text or "x") + log[at + 1:]
    elif how == "insert":
        log = log[:at] + text + log[at:]
    else:
        log = log[:at] + "[" * 20_000 + log[at:]
    try:
        game = Game.replay(log)
    except HupaiError:
        return
    assert game.to_json() == Game.replay(game.to_json()).to_json()


def test_deeply_nested_input_anywhere_is_invalid_state() -> None:
    rng = random.Random(7)
    for base in SNAPSHOTS[:12]:
        data = json.loads(base)
        for _ in range(3):
            mutate(data, rng)
        data.setdefault("table", {})
        if isinstance(data["table"], dict):
            data["table"]["extras"] = {"x": deep()}
        with pytest.raises(HupaiError):
            Game.from_snapshot(data)


# -- actions -----------------------------------------------------------------------------------------------------
_FIELD = st.one_of(st.integers(-3, 40), st.sampled_from([2**64, -(2**70), True, 1.0, None, "1m", [], [1, 2, 3]]))
_KIND = st.sampled_from(["discard", "chow", "pung", "kong", "win", "pass", "declare", "draw", "", 5, None])
_FLAG = st.sampled_from(["", "exposed", "concealed", "added", "ming_gang", "you_jin", "qiang_jin", "x", 1])
_TILES = st.one_of(st.lists(st.integers(-1, 35), max_size=5), st.sampled_from([(), "123m", None, [True]]))
_ACTIONS = st.one_of(
    st.builds(Action, _KIND, st.integers(-1, 5), st.integers(-2, 35), _TILES.map(lambda t: t if isinstance(
        t, tuple) else tuple(t) if isinstance(t, list) else t), _FLAG),
    st.fixed_dictionaries({"kind": _KIND, "seat": _FIELD}, optional={"tile": _FIELD, "tiles": _TILES,
                                                                     "flag": _FLAG, "extra": _FIELD}),
    st.sampled_from([None, 3, "discard", [], ("discard", 0, 5, (), ""), {"kind": "pass"}]),
)


@_examples(200)
@given(st.integers(0, len(SNAPSHOTS) - 1), _ACTIONS, st.integers(0, 3))
def test_illegal_or_forged_actions_leave_the_game_exactly_as_it_was(index: int, action: Any, seat: int) -> None:
    game = Game.from_snapshot(json.loads(SNAPSHOTS[index]))
    for other in range(game.num_players):
        game.legal_actions(other)  # caches filled or not, a refused action changes nothing
    before = json.dumps(game.snapshot(), sort_keys=True)
    legal_before = [game.legal_actions(s) for s in range(game.num_players)]
    try:
        game.apply(action)
    except IllegalAction:
        assert json.dumps(game.snapshot(), sort_keys=True) == before
        assert [game.legal_actions(s) for s in range(game.num_players)] == legal_before
        return
    # It was legal after all: it is now the last action, in the engine's own form
    assert game.actions[-1] in legal_before[game.actions[-1].seat]
