"""A match is stored whole (issue 20 item 3): ``Match.to_dict()`` -> JSON text -> ``Match.from_dict`` after any
hand gives a match that plays on exactly as the one that was never stopped, in every rule system; tampered data
raises ``InvalidState`` naming the field."""

from __future__ import annotations

import copy
import json
from typing import Any

import hupai
import pytest
from hupai import HupaiError, InvalidState
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Match, play
from hupai.game.match import MATCH_FORMAT

SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")
HANDS = 4


def _bots(n: int, hand: int) -> list[Any]:
    """Fresh bots per hand (seeded by the hand): a restarted match's hand is played by the same bots."""
    return [GreedyBot(hand * 10 + seat) if seat % 2 == 0 else RandomBot(hand * 10 + seat) for seat in range(n)]


def _play_hand(match: Match) -> str:
    game = match.new_game()
    play(game, _bots(match.rules.num_players, match.hand_index))
    match.record(game)
    return game.to_json()


def _restarted(match: Match) -> Match:
    text = json.dumps(match.to_dict())
    return Match.from_dict(json.loads(text))


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("restart_after", [0, 1, 2, 3, "every"])
def test_a_match_restarted_after_a_hand_plays_on_as_the_one_never_stopped(system: str,
                                                                        restart_after: int | str) -> None:
    seed = 2026 + SYSTEMS.index(system)
    original = Match(system, seed=seed)
    logs = [_play_hand(original) for _ in range(HANDS)]

    match = Match(system, seed=seed)
    for hand in range(HANDS):
        if restart_after == "every" or restart_after == hand:
            before = match.to_dict()
            match = _restarted(match)
            assert match.to_dict() == before
        assert _play_hand(match) == logs[hand], f"hand {hand} plays differently after the restart"
    assert match.to_dict() == original.to_dict()
    assert match.scores == original.scores


@pytest.mark.rule("WH-5")
def test_a_wai_huzi_session_keeps_its_shen_through_a_restart() -> None:
    match = Match("waihuzi", seed=7)
    assert match.rules.options_dict()["shen"] is None
    _play_hand(match)
    shen = match.rules.options_dict()["shen"]
    assert shen in ("odd", "even")
    restored = _restarted(match)
    assert restored.rules.options_dict()["shen"] == shen
    # The bug this replaces: a match rebuilt from the creation options lost the 神, and record refused hand 2.
    game = restored.new_game()
    play(game, _bots(3, 1))
    restored.record(game)
    assert restored.hand_index == 2


def test_to_json_is_to_dict_as_text_and_from_json_reads_it() -> None:
    match = Match("guangdong", seed=3)
    _play_hand(match)
    assert match.to_dict()["format"] == MATCH_FORMAT
    assert json.loads(match.to_json()) == match.to_dict()
    assert Match.from_json(match.to_json()).to_dict() == match.to_dict()
    assert Match.from_json(match.to_dict()).to_dict() == match.to_dict()


def test_a_restored_match_keeps_its_claim_window_and_first_dealer() -> None:
    match = Match("kawuxing", seed=11, first_dealer=2, claim_window="eligible")
    _play_hand(match)
    restored = _restarted(match)
    assert (restored.claim_window, restored.first_dealer) == ("eligible", 2)
    game = restored.new_game()
    assert game.claim_window == "eligible" and game.setup["first_dealer"] == 2


def test_a_match_of_a_rule_system_outside_the_registry_takes_its_rules_object() -> None:
    rules = hupai.rules.get("guangdong")
    match = Match(rules, seed=5)
    _play_hand(match)
    restored = Match.from_dict(match.to_dict(), rules=rules)
    assert restored.rules is rules
    other = hupai.rules.get("yunxiao")
    with pytest.raises(InvalidState, match=r"match\.rules"):
        Match.from_dict(match.to_dict(), rules=other)


def _played(system: str = "guangdong") -> dict[str, Any]:
    match = Match(system, seed=99)
    _play_hand(match)
    _play_hand(match)
    return match.to_dict()


TAMPERED = [
    ("format", "hupai-match/2", r"match\.format: version '2'"),
    ("format", "hupai-game-log/1", r"match\.format"),
    ("rules", "nosuch", r"match\.rules"),
    ("options", {"nosuch": 1}, r"match\.options"),
    ("options", [], r"match\.options"),
    ("seed", -1, r"match\.seed"),
    ("seed", 1 << 64, r"match\.seed"),
    ("seed", "1", r"match\.seed"),
    ("first_dealer", 4, r"match\.first_dealer"),
    ("dealer", True, r"match\.dealer"),
    ("round_wind", 5, r"match\.round_wind"),
    ("hands", -1, r"match\.hands"),
    ("hands", 10**7, r"match\.hands"),
    ("scores", [0, 0, 0], r"match\.scores"),
    ("scores", [1, -1, 0, 1], r"match\.scores: sum to 1"),
    ("scores", [1.0, -1, 0, 0], r"match\.scores\[0\]"),
    ("scores", [1 << 60, -(1 << 60), 0, 0], r"match\.scores\[0\]"),
    ("over", 0, r"match\.over"),
    ("claim_window", "some", r"match\.claim_window"),
]


@pytest.mark.parametrize(("key", "value", "message"), TAMPERED)
def test_a_tampered_match_is_refused_naming_the_field(key: str, value: Any, message: str) -> None:
    data = _played()
    data[key] = value
    with pytest.raises(InvalidState, match=message):
        Match.from_dict(data)


@pytest.mark.parametrize("change", ["missing", "extra", "not a dict", "fresh but moved", "past north",
                                    "deep options", "huge text"])
def test_malformed_matches_are_refused(change: str) -> None:
    data = _played()
    if change == "missing":
        del data["scores"]
        expected = r"match: missing field\(s\) scores"
    elif change == "extra":
        data["results"] = []
        expected = r"match: unknown field\(s\) results"
    elif change == "not a dict":
        data = [data]  # type: ignore[assignment]
        expected = r"match: must be a JSON object"
    elif change == "fresh but moved":
        data["hands"], data["over"] = 0, True
        expected = r"match\.hands: 0 hands played"
    elif change == "past north":
        data["round_wind"], data["over"] = 4, False
        expected = r"match\.round_wind: 4"
    elif change == "deep options":
        nested: Any = 0
        for _ in range(10_000):
            nested = [nested]
        data["options"] = {"x": nested}
        expected = r"match\.options"
    else:
        with pytest.raises(InvalidState, match=r"match: longer than \d+ characters"):
            Match.from_json(" " * (2 << 20))
        return
    with pytest.raises(InvalidState, match=expected):
        Match.from_dict(data)


@pytest.mark.rule("WH-5")
def test_a_wai_huzi_match_past_its_first_hand_without_its_shen_is_refused() -> None:
    data = _played("waihuzi")
    data["options"] = {**data["options"], "shen": None}
    with pytest.raises(InvalidState, match=r"match\.options\.shen"):
        Match.from_dict(data)


def test_a_refused_match_leaves_the_data_unchanged() -> None:
    data = _played()
    data["scores"] = [1, 0, 0, 0]
    before = copy.deepcopy(data)
    with pytest.raises(HupaiError):
        Match.from_dict(data)
    assert data == before


def test_a_finished_match_restores_as_finished() -> None:
    match = Match("guangdong", seed=1)
    match.over = True  # as next_round says after 北 (GD-6)
    match.round_wind = 4
    match.hand_index = 16
    restored = _restarted(match)
    assert restored.over
    with pytest.raises(HupaiError, match="the match is over"):
        restored.new_game()
