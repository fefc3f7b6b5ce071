"""Issue 13, item 3: the versioned JSON contract for servers (observations, actions, logs, their JSON Schemas,
``game.apply_json``), ``seats_to_act`` as a property and ``Match.record`` refusing another table's game."""

from __future__ import annotations

import functools
import json
import warnings
from typing import Any

import hupai
import jsonschema
import pytest
from hupai import HupaiError, IllegalAction
from hupai.bots import GreedyBot
from hupai.game import Action, Game, Match, play
from hupai.jsonform import SCHEMA_VERSION, loads, schema
from hupai.observation import Observation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")


@functools.cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    document = schema(name)
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return cls(document)


def _played(system: str, seed: int, every: int = 5) -> tuple[Game, list[Observation]]:
    """A bot game, with the observations of every seat at every ``every``-th decision."""
    game = Game(system, seed=seed, dealer=seed % hupai.rules.get(system).num_players)
    bots = [GreedyBot(seed * 4 + i) for i in range(game.rules.num_players)]
    seen: list[Observation] = []
    step = 0
    while not game.over:
        if step % every == 0:
            seen.extend(game.observation(seat) for seat in range(game.rules.num_players))
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
        step += 1
    seen.extend(game.observation(seat) for seat in range(game.rules.num_players))
    return game, seen


@pytest.fixture(scope="module")
def games() -> dict[str, list[tuple[Game, list[Observation]]]]:
    return {system: [_played(system, seed) for seed in range(3)] for system in SYSTEMS}


# -- the schemas, against real games of every system ----------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_observations_actions_and_logs_match_their_schemas(games, system):
    observation, action, log = _validator("observation"), _validator("action"), _validator("log")
    won = 0
    for game, seen in games[system]:
        for obs in seen:
            data = json.loads(json.dumps(obs.to_dict()))
            observation.validate(data)
            assert data["schema_version"] == SCHEMA_VERSION
            for legal in data["legal_actions"]:
                action.validate(legal)
        for applied in game.actions:
            action.validate(applied.to_dict())
        log.validate(json.loads(game.to_json()))
        won += bool(game.result and game.result.winners)
    assert won, f"no {system} game was won: the result's schema went untested"


def test_the_schemas_can_fail():
    observation = _validator("observation")
    data = Game("guangdong", seed=1).observation(0).to_dict()
    for broken in ({**data, "hand": [0, 1]}, {**data, "schema_version": 1}, {**data, "secret": 1},
                   {**data, "tile": "0m"}):
        with pytest.raises(jsonschema.ValidationError):
            observation.validate(broken)
    with pytest.raises(jsonschema.ValidationError):
        _validator("action").validate({"kind": "kong", "seat": 0, "tile": "1m"})  # a kong needs its flag
    with pytest.raises(HupaiError, match="unknown schema"):
        schema("table")


def test_tiles_are_notation_in_json_and_ints_are_accepted_on_input():
    game = Game("guangdong", seed=5)
    obs = game.observation(game.current.seats[0])
    data = obs.to_dict()
    assert all(isinstance(tile, str) for tile in data["hand"]) and data["legal_actions"][0]["tile"] in data["hand"]
    assert Action.from_json({"kind": "discard", "seat": 0, "tile": "5m"}) == Action("discard", 0, 4)
    assert Action.from_json({"kind": "discard", "seat": 0, "tile": 4}) == Action("discard", 0, 4)
    assert Action.from_json({"kind": "chow", "seat": 1, "tile": "3m", "tiles": ["1m", "2m", 2]}).tiles == (0, 1, 2)
    assert Action.from_json({"schema_version": SCHEMA_VERSION, "kind": "pass", "seat": 2}) == Action("pass", 2)
    with pytest.raises(IllegalAction, match="schema_version"):
        Action.from_json({"schema_version": 1, "kind": "pass", "seat": 2})
    as_ints = {**data, "hand": [hupai.parse(t)[0] for t in data["hand"]]}
    assert Observation.from_json(as_ints) == obs


@pytest.mark.parametrize("system", SYSTEMS)
def test_json_round_trips(games, system):
    for _, seen in games[system]:
        for obs in seen:
            text = json.dumps(obs.to_dict())
            again = Observation.from_json(json.loads(text))
            assert again == obs and json.dumps(again.to_dict()) == text
            for action in obs.legal_actions:
                assert Action.from_json(json.loads(json.dumps(action.to_dict()))) == action


# -- hostile JSON never crashes ------------------------------------------------------------------------------------
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["1m", "7z", "chow", "kong", "concealed"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@pytest.fixture(scope="module")
def sample_observation() -> dict[str, Any]:
    game = Game("yunxiao", seed=2)
    play(game, [GreedyBot(i) for i in range(4)])
    data: dict[str, Any] = game.observation(1).to_dict()
    return data


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*path, index))
    return out


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copy


@given(data=st.data(), new=_JSON)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_hostile_observation_json_raises_only_hupai_errors(sample_observation, data, new):
    paths = _paths(sample_observation)
    path = data.draw(st.sampled_from(paths))
    forged = _replaced(sample_observation, path, new)
    try:
        Observation.from_json(forged)
    except HupaiError:
        pass


@given(data=_JSON)
@settings(max_examples=300, deadline=None)
def test_hostile_action_json_raises_only_hupai_errors(data):
    game = Game("guangdong", seed=9)
    before = json.dumps(game.snapshot(), sort_keys=True)
    seat = game.current.seats[0]
    for payload in (data, json.dumps(data), {"kind": "discard", "seat": seat, "tile": data}):
        try:
            game.apply_json(seat, payload)
        except HupaiError:
            assert json.dumps(game.snapshot(), sort_keys=True) == before
        else:  # a legal discard forged by chance is applied: start again
            game = Game("guangdong", seed=9)


# -- apply_json ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("payload", "why"), [
    ('{"kind": "discard", "tile": "1m"', "not JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"kind": "discard", "tile": NaN}', "not JSON"),
    ('{"kind": "discard", "tile": "1x"}', "not a tile"),
    ('{"kind": "discard", "tile": 1.0}', "must be an int"),
    ('{"kind": "discard", "tile": "1m", "colour": "red"}', "unknown field"),
    ('{"kind": "discard", "seat": 1, "tile": "1m"}', "acts only for itself"),
    ('{"kind": "discard", "seat": "0", "tile": "1m"}', "must be an int"),
    ('{"kind": "win", "tile": "9z"}', "not a tile"),
    ("\"discard\"", "expected a JSON object"),
    (b"\xff\xfe", "not JSON"),
    ("[" * 100000 + "]" * 100000, "not JSON"),
])
def test_apply_json_refuses_malformed_input_and_leaves_the_game_unchanged(payload, why):
    game = Game("guangdong", seed=4, dealer=0)
    before = json.dumps(game.snapshot(), sort_keys=True)
    with pytest.raises(IllegalAction, match=why):
        game.apply_json(0, payload)
    assert json.dumps(game.snapshot(), sort_keys=True) == before


def test_apply_json_refuses_a_forged_action_and_accepts_a_legal_one():
    game = Game("guangdong", seed=4, dealer=0)
    hand = game.observation(0).hand
    missing = next(kind for kind in range(34) if kind not in hand)
    before = json.dumps(game.snapshot(), sort_keys=True)
    for forged in ({"kind": "discard", "tile": hupai.format_tiles([missing])}, {"kind": "win"},
                   {"kind": "pung", "tile": "1m"}, {"kind": "kong", "tile": "1m", "flag": "concealed"}):
        with pytest.raises(IllegalAction):
            game.apply_json(0, json.dumps(forged))
        assert json.dumps(game.snapshot(), sort_keys=True) == before
    with pytest.raises(IllegalAction, match="not a seat"):
        game.apply_json(4, '{"kind": "pass"}')
    tile = hupai.format_tiles([hand[0]])
    applied = game.apply_json(0, json.dumps({"kind": "discard", "tile": tile}))
    assert applied == Action("discard", 0, hand[0]) and game.actions == [applied]


def test_loads_bounds_its_input():
    with pytest.raises(HupaiError, match="longer than"):
        loads("1" * (2 << 20), "action")
    with pytest.raises(HupaiError, match="expected JSON text"):
        loads(3, "action")  # type: ignore[arg-type]


# -- properties and the match ------------------------------------------------------------------------------------
def test_seats_to_act_is_a_property_like_current():
    game = Game("guangdong", seed=1)
    assert game.seats_to_act == game.current.seats and isinstance(game.seats_to_act, tuple)
    with pytest.warns(DeprecationWarning, match="property"):
        assert game.seats_to_act() == game.current.seats  # type: ignore[operator]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert game.seats_to_act[0] == game.current.seats[0]


def test_match_record_refuses_a_game_with_other_rules_or_options():
    match = Match("guangdong", seed=3)
    before = match.to_dict()
    for other in (Game("yunxiao", seed=1, dealer=match.dealer),
                  Game(hupai.rules.get("guangdong", cap_fan=5), seed=1, dealer=match.dealer,
                       first_dealer=match.first_dealer),
                  Game("guangdong", seed=1, dealer=(match.dealer + 1) % 4, first_dealer=match.first_dealer),
                  Game("guangdong", seed=1, dealer=match.dealer, first_dealer=match.first_dealer,
                       claim_window="eligible")):
        play(other, [GreedyBot(i) for i in range(4)])
        with pytest.raises(HupaiError):
            match.record(other)
        assert match.to_dict() == before
    with pytest.raises(HupaiError, match="takes a Game"):
        match.record("game")  # type: ignore[arg-type]
    game = match.new_game()
    play(game, [GreedyBot(i) for i in range(4)])
    assert match.record(game) is game.result and match.hand_index == 1


_ACTIONS = st.builds(
    Action, st.sampled_from(["discard", "chow", "pung", "win", "pass", "declare"]), st.integers(0, 3),
    st.integers(-1, 33), st.lists(st.integers(0, 33), max_size=4).map(tuple),
    st.sampled_from(["", "liangdao", "you_jin"]))


@given(_ACTIONS)
@settings(max_examples=300, deadline=None)
def test_action_json_round_trips(action):
    data = json.loads(json.dumps(action.to_dict()))
    _validator("action").validate(data)
    assert Action.from_json(data) == action
    assert Action.from_json(action.to_log()) == action  # the log's int form is read too
