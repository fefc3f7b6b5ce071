"""Issue 23 (API): one serialization convention everywhere: ``to_json() -> str``, ``to_dict() -> dict``,
``from_dict(dict)`` and ``from_json(str | dict)``; the old dict-returning ``to_json()`` deprecated, not broken."""

from __future__ import annotations

import json
import pickle
import warnings
from typing import Any

import hupai
import pytest
from hupai.bots import GreedyBot
from hupai.game import Action, Game, Match, play
from hupai.jsonform import JSONText
from hupai.observation import MeldView, Observation, ResultView, WinView
from hupai.serve.tables import TableConfig
from hupai.simulate.stats import Interval, SeatStats, Stats

SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")


def _finished(system: str, seed: int = 3) -> Game:
    game = Game(system, seed=seed)
    play(game, [GreedyBot(seed * 4 + i) for i in range(game.rules.num_players)])
    return game


def _won(system: str) -> Game:
    for seed in range(1, 60):
        game = _finished(system, seed)
        if game.result is not None and game.result.wins:
            return game
    raise AssertionError(f"no {system} win in 60 seeds")


def _serializables(system: str) -> list[Any]:
    """One of every type with to_dict/to_json, from a finished hand of ``system`` with a win."""
    game = _won(system)
    result = game.result
    assert result is not None
    win = result.wins[0]
    over = game.observation(win.seat)
    assert over.result is not None
    match = Match(system, seed=1)
    simulation = hupai.simulate(system, hands=2, bots="random", seed=1, workers=1)
    config = TableConfig(system, {}, (1, 2))
    return [game.legal_actions(game.current.seats[0])[0] if not game.over else Action("pass", 0),
            over, over.result, over.result.wins[0], *[m for ms in over.melds for m in ms][:1], game.events[0],
            result, win, win.score, *win.score.patterns[:1], match, simulation, simulation.stats,
            simulation.stats.seats[0], simulation.win_rate(0), config]


def _null_nan(data: Any) -> Any:
    """JSON-able data as JSON text has it: NaN (a simulation's empty estimates) written as null."""
    if isinstance(data, dict):
        return {key: _null_nan(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_null_nan(value) for value in data]
    return None if isinstance(data, float) and data != data else data


@pytest.mark.parametrize("system", SYSTEMS)
def test_to_json_is_text_and_to_dict_the_same_data(system: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the new names never warn
        for item in _serializables(system):
            text, data = item.to_json(), item.to_dict()
            assert isinstance(text, str) and type(data) is dict, type(item).__name__
            assert json.loads(text) == _null_nan(data), type(item).__name__


def test_game_has_the_convention_too() -> None:
    game = _finished("guangdong")
    text = game.to_json()
    assert type(text) is str  # the log was text already: byte for byte what it was
    assert json.loads(text) == game.to_dict() == game.log()
    assert Game.from_json(text).to_json() == text
    assert Game.from_json(game.to_dict()).to_json() == text
    assert Game.from_dict(game.to_dict()).to_json() == text


@pytest.mark.parametrize("system", SYSTEMS)
def test_from_json_reads_text_or_dict(system: str) -> None:
    game = _won(system)
    obs = game.observation(0)
    kinds = len(obs.counts)
    assert Observation.from_json(obs.to_json()) == obs
    assert Observation.from_json(obs.to_json().encode()) == obs
    assert Observation.from_json(obs.to_dict()) == Observation.from_dict(obs.to_dict()) == obs
    result = obs.result
    assert result is not None
    assert ResultView.from_json(result.to_json(kinds), kinds=kinds) == result
    assert ResultView.from_dict(result.to_dict(kinds), kinds=kinds) == result
    assert WinView.from_json(result.wins[0].to_json(kinds), kinds=kinds) == result.wins[0]
    for melds in obs.melds:
        for meld in melds:
            assert MeldView.from_json(meld.to_json(kinds), kinds=kinds) == meld
            assert MeldView.from_dict(meld.to_dict(kinds), kinds=kinds) == meld
    for action in game.legal_actions(0) or (Action("discard", 0, 4), Action("chow", 1, 2, (0, 1, 2))):
        assert Action.from_json(action.to_json()) == Action.from_dict(action.to_dict()) == action


def test_from_json_refuses_bad_text_with_a_hupai_error() -> None:
    with pytest.raises(hupai.IllegalAction, match="malformed action: not JSON"):
        Action.from_json('{"kind": "discard",')
    with pytest.raises(hupai.HupaiError, match="malformed observation: not JSON"):
        Observation.from_json("[1, 2")
    with pytest.raises(hupai.HupaiError, match="not an observation of schema version"):
        Observation.from_json("[1, 2]")


def test_stats_round_trip_through_text() -> None:
    simulation = hupai.simulate("guangdong", hands=3, bots="random", seed=2, workers=1)
    stats = simulation.stats
    assert Stats.from_json(stats.to_json()) == Stats.from_dict(stats.to_dict()) == stats
    assert SeatStats.from_json(stats.seats[1].to_json()) == stats.seats[1]
    assert json.loads(Interval(0.5, 0.25, 0.75).to_json()) == {"value": 0.5, "ci95": [0.25, 0.75]}


# -- the old forms: deprecated, not broken ------------------------------------------------------------------


def _old(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    return data


def test_old_mapping_use_of_to_json_warns_and_still_works() -> None:
    obs = Game("guangdong", seed=1).observation(0)
    text, data = obs.to_json(), obs.to_dict()
    assert isinstance(text, JSONText)
    with pytest.warns(DeprecationWarning, match=r"to_dict\(\)"):
        assert text["hand"] == data["hand"]
    with pytest.warns(DeprecationWarning):
        assert text.get("seat") == 0 and text.get("nothing", 7) == 7
    with pytest.warns(DeprecationWarning):
        assert list(text.keys()) == list(data)
    with pytest.warns(DeprecationWarning):
        assert list(text.values()) == list(data.values())
    with pytest.warns(DeprecationWarning):
        assert dict(text.items()) == data
    with pytest.warns(DeprecationWarning):
        assert "and" not in text  # a substring but no key: the dict's answer, with a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert "legal_actions" in text and "seed" not in text  # dict and text agree: no warning
    with pytest.warns(DeprecationWarning):
        assert 0 not in Action("pass", 0).to_json()  # not a str: only the dict can answer
    with pytest.warns(DeprecationWarning):
        assert text == data and not (text != data)
    with pytest.warns(DeprecationWarning):
        assert dict(text) == data and {**text} == data
    with pytest.warns(DeprecationWarning):
        copied = text.copy()
    copied["seat"] = 9  # a copy: the text's own data is untouched
    with pytest.warns(DeprecationWarning):
        assert text["seat"] == 0
    with pytest.raises(KeyError), pytest.warns(DeprecationWarning):
        text["nothing"]


def test_every_old_dict_to_json_gives_the_same_data_as_before() -> None:
    """What ``to_json()`` returned before (a dict) is what the deprecated mapping use reads, type by type."""
    for item in _serializables("waihuzi") + _serializables("guangdong"):
        text = item.to_json()
        with pytest.warns(DeprecationWarning):
            assert _null_nan(dict(text)) == _null_nan(item.to_dict()), type(item).__name__


def test_the_text_is_a_plain_str_without_warnings() -> None:
    action = Action("discard", 0, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        text = action.to_json()
        assert text == '{"kind":"discard","seat":0,"tile":"5m"}'
        assert text[0] == "{" and text[1:7] == '"kind"' and len(text) == 39 and list(text)[0] == "{"
        assert hash(text) == hash(str(text)) and {text: 1}[str(text)] == 1
        assert json.loads(text) == action.to_dict() and text.startswith("{") and text.upper().isupper()
        again = pickle.loads(pickle.dumps(text))
        assert again == text and isinstance(again, str)
        assert (text == 5) is False


def test_json_dumps_of_the_text_writes_a_json_string_which_the_readers_still_take() -> None:
    """The one old use that cannot be kept (no str subclass can change how json.dumps writes it): the text is
    quoted, and loads back as the same text, where the dict used to be written. The readers take that doubly
    quoted text, with a warning, so a sender not yet moved to to_dict() still reaches them."""
    action = Action("discard", 0, 4)
    text = action.to_json()
    assert json.loads(json.dumps(text)) == text == '{"kind":"discard","seat":0,"tile":"5m"}'
    with pytest.warns(DeprecationWarning, match="quoted twice"):
        assert Action.from_json(json.dumps(text)) == action
    obs = Game("guangdong", seed=1).observation(0)
    with pytest.warns(DeprecationWarning, match="quoted twice"):
        assert Observation.from_json(json.dumps(obs.to_json())) == obs
    game = Game("guangdong", seed=1)
    choice = game.legal_actions(game.current.seats[0])[0]
    with pytest.warns(DeprecationWarning, match="quoted twice"):
        assert game.apply_json(choice.seat, json.dumps(choice.to_json())) == choice
    for text in (json.dumps("discard"), json.dumps(json.dumps(json.dumps({"kind": "pass"})))):
        with pytest.raises(hupai.IllegalAction, match="expected a JSON object, got str"):
            Game("guangdong", seed=1).apply_json(0, text)  # a JSON string, or quoted three times: no


def test_simulation_to_json_text_is_deprecated_for_to_json() -> None:
    result = hupai.simulate("guangdong", hands=2, bots="random", seed=1, workers=1)
    with pytest.warns(DeprecationWarning, match="to_json"):
        old = result.to_json_text()
    assert _old(old) == _old(result.to_json())
    data = _old(result.to_json())
    data.pop("run")
    plain = result.to_dict()
    plain.pop("run")
    assert data == _null_nan(plain)
