"""Actions and their JSON form; the rules registry; the public API re-exports."""

import json

import hupai
import pytest
from hupai.actions import ACTIONS, CHOW_RUNS, coerce
from hupai.game import Action


def test_action_json_round_trip():
    for action in (Action("discard", 0, 5), Action("chow", 1, 4, (3, 4, 5)),
                   Action("kong", 2, 7, (), "added"), Action("pass", 3),
                   Action("declare", 1, -1, (), "youjin")):
        assert Action.from_json(json.loads(json.dumps(action.to_dict()))) == action
        assert Action.from_compact(json.loads(json.dumps(action))) == action


@pytest.mark.parametrize("bad", [
    None, 3, "discard", {"kind": "fly", "seat": 0}, {"seat": 0}, {"kind": "discard"},
    {"kind": "discard", "seat": 0, "tile": 34}, {"kind": "discard", "seat": 0, "tile": "1x"},
    {"kind": "kong", "seat": 0, "tile": 1}, {"kind": "chow", "seat": 0, "tiles": [1, 99]},
    {"kind": "discard", "seat": 0, "colour": "red"}, {"kind": "pass", "seat": 0, "flag": 3},
])
def test_malformed_actions_are_rejected(bad):
    with pytest.raises(hupai.IllegalAction, match="malformed"):
        coerce(bad)


def test_prebuilt_actions_and_runs():
    assert ACTIONS.discard[2][5] == Action("discard", 2, 5)
    assert ACTIONS.exposed_kong[1][3] == Action("kong", 1, 3, (), "exposed")
    assert CHOW_RUNS[0] == ((0, 1, 2),)
    assert CHOW_RUNS[4] == ((2, 3, 4), (3, 4, 5), (4, 5, 6))
    assert CHOW_RUNS[9 + 8] == ((15, 16, 17),)
    assert CHOW_RUNS[27] == ()


def test_rules_registry():
    assert hupai.rules.names() == sorted(hupai.rules.names()) and "guangdong" in hupai.rules.names()
    rules = hupai.rules.get("guangdong", louhu="any_tile")
    assert rules.options_dict()["louhu"] == "any_tile"
    assert hupai.rules.get("guangdong", {"base": 2}).options_dict()["base"] == 2
    for bad in (lambda: hupai.rules.get("riichi"), lambda: hupai.rules.get("guangdong", colour=1),
                lambda: hupai.rules.get("guangdong", louhu="never"),
                lambda: hupai.rules.get("guangdong", [1])):
        with pytest.raises(hupai.HupaiError):
            bad()


def test_public_api():
    for name in ("Game", "Match", "Action", "HandResult", "score", "rules", "bots", "WinContext"):
        assert hasattr(hupai, name), name
    game = hupai.Game("guangdong", seed=1)
    assert isinstance(game, hupai.game.Game)
    assert game.rules.name == "guangdong"


def test_score_without_a_game():
    """``hupai.score(rules, context)`` scores a hand a server played itself (GD-E1)."""
    concealed = tuple(hupai.parse("123m456p78s222s55p"))
    context = hupai.WinContext(winner=1, win_tile=hupai.parse("9s")[0], concealed=concealed, discarder=3)
    result = hupai.score(hupai.rules.get("guangdong"), context)
    assert result.payments == (0, 1, 0, -1)
