"""Hostile input found by a red-team pass over the public API (every rule system): each case once crashed with a
non-hupai exception (ValueError, TypeError, IndexError, AttributeError), hung, or let a game accept what its own log
then refused. Each must now raise a :class:`hupai.HupaiError` and leave any game exactly as it was."""

from __future__ import annotations

import json
from typing import Any

import hupai
import pytest
from hupai import HupaiError, IllegalAction, InvalidHand, InvalidState
from hupai.actions import Action
from hupai.bots import RandomBot
from hupai.game import Game, play
from hupai.observation import Observation
from hupai.scoring import WinContext

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]
#: More digits than Python will write out (sys.get_int_max_str_digits(), 4300): formatting it raises ValueError.
HUGE = 10**5000


def _state(game: Game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True)


def _started(system: str) -> Game:
    game = Game(system, seed=3)
    bots = [RandomBot(seat) for seat in range(game.rules.num_players)]
    for _ in range(6):  # a few moves in: a claim window or a turn
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
    return game


def _finishes(game: Game) -> None:
    play(game, [RandomBot(seat) for seat in range(game.rules.num_players)])
    text = game.to_json()
    assert Game.replay(text).to_json() == text


# -- actions ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_huge_ints_in_an_action_are_illegal_and_change_nothing(system: str) -> None:
    game = _started(system)
    seat = game.seats_to_act[0]
    before = _state(game)
    forged: list[Any] = [
        Action("discard", HUGE, 0), Action("discard", seat, HUGE), Action("chow", seat, 0, (HUGE,)),
        {"kind": "discard", "seat": HUGE}, {"kind": HUGE, "seat": seat},
        {"kind": "discard", "seat": seat, "tile": -HUGE},
        {"kind": "pass", "seat": seat, "flag": HUGE}, {"kind": "pass", "seat": 2**64},
    ]
    for action in forged:
        with pytest.raises(IllegalAction):
            game.apply(action)
        with pytest.raises(IllegalAction):
            game.apply_json(seat, {key: value for key, value in (action._asdict() if isinstance(action, Action)
                                                               else action).items()})
        assert _state(game) == before
    with pytest.raises(IllegalAction):
        game.apply_json(HUGE, "{}")
    with pytest.raises(IllegalAction):
        game.apply_json(seat, {"kind": "pass", "schema_version": HUGE})
    assert _state(game) == before
    _finishes(game)


@pytest.mark.parametrize("system", SYSTEMS)
def test_seats_from_outside_are_checked(system: str) -> None:
    """legal_actions, observation, hand and visible_events refuse a non-seat (a negative one once read another
    seat's hand; a float or a list raised TypeError)."""
    game = _started(system)
    before = _state(game)
    for seat in (-1, game.rules.num_players, 9, HUGE, 1.0, "0", None, True, [], (0,)):
        for call in (game.legal_actions, game.observation, game.hand, game.visible_events):
            with pytest.raises(HupaiError):
                call(seat)  # type: ignore[operator]
    assert _state(game) == before
    _finishes(game)


# -- the constructor and options ----------------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_game_arguments_of_the_wrong_type_are_refused(system: str) -> None:
    tiles = hupai.rules.get(system).tiles()
    for kwargs in ({"seed": HUGE}, {"dealer": HUGE}, {"round_wind": -HUGE}, {"first_dealer": HUGE},
                   {"claim_window": HUGE}, {"claim_window": []}, {"wall": 5}, {"wall": [None] * len(tiles)},
                   {"wall": ["1m", *tiles[1:]]}, {"wall": [float(t) for t in tiles]},
                   {"wall": [True if t == tiles[0] else t for t in tiles] if tiles[0] in (0, 1) else 1.5}):
        with pytest.raises(HupaiError):
            Game(system, **kwargs)
    with pytest.raises(HupaiError):
        hupai.rules.get(HUGE)  # type: ignore[arg-type]


@pytest.mark.rule("YX-23")
def test_yx_23_a_huge_max_kongs_is_refused_not_built() -> None:
    """The rules size a table by max_kongs: 2**63 from a hostile log once ate all memory."""
    for value in (17, 2**31, 2**63, HUGE):
        with pytest.raises(HupaiError, match="max_kongs"):
            Game("yunxiao", seed=1, options={"max_kongs": value})
    log = json.loads(Game("yunxiao", seed=1).to_json())
    log["options"]["max_kongs"] = 2**63
    with pytest.raises(InvalidState, match="max_kongs"):
        Game.replay(log)
    assert Game("yunxiao", seed=1, options={"max_kongs": 16}).rules.options.max_kongs == 16


@pytest.mark.parametrize(("system", "option"), [("guangdong", "base"), ("guangdong", "cap_fan"),
                                                ("guangdong", "wall_reserve"), ("yunxiao", "base_points"),
                                                ("kawuxing", "base"), ("kawuxing", "cap"), ("waihuzi", "min_huxi"),
                                                ("waihuzi", "cap")])
def test_int_options_are_bounded_so_every_accepted_game_replays(system: str, option: str) -> None:
    """An int option beyond hupai.rules.options.MAX_INT is refused: 2**64 was accepted by Game but refused by the
    replay of its own log, 2**31 made Wai Huzi's core raise TypeError, and 10**5000 could not be written in the
    message."""
    for value in (hupai.rules.options.MAX_INT + 1, 2**31, 2**64, HUGE):
        with pytest.raises(HupaiError, match=option):
            Game(system, seed=1, options={option: value})
    game = Game(system, seed=1, options={option: hupai.rules.options.MAX_INT})
    _finishes(game)


def test_int_list_options_are_bounded() -> None:
    with pytest.raises(HupaiError, match="wall_end_reserve"):
        Game("yunxiao", options={"wall_end_reserve": [HUGE, 0, 0]})
    with pytest.raises(HupaiError, match="wall_end_reserve"):
        Game("yunxiao", options={"wall_end_reserve": [2**64, 0, 0]})


@pytest.mark.parametrize("system", SYSTEMS)
def test_unknown_option_keys_of_any_type_are_refused(system: str) -> None:
    for key in (HUGE, None, 1, (1,), "zz"):
        with pytest.raises(HupaiError, match="unknown"):
            Game(system, options={key: 1})


# -- saved games --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_replay_and_restore_refuse_a_rules_argument_that_is_not_rules(system: str) -> None:
    game = _started(system)
    for rules in ("guangdong", 5, object()):
        with pytest.raises(HupaiError):
            Game.replay(game.to_json(), rules=rules)  # type: ignore[arg-type]
        with pytest.raises(HupaiError):
            Game.from_snapshot(game.snapshot(), rules=rules)  # type: ignore[arg-type]


def test_huge_ints_in_a_snapshot_or_log_are_invalid_state() -> None:
    """A dict (not JSON text, whose parser refuses such ints itself) with a huge int in a meld's source seat, a
    key, a setup field or an action."""
    for system in SYSTEMS:
        game = _started(system)
        for path in (("setup", "seed"), ("setup", "dealer"), ("actions", 0, 1), ("actions", 0, 2)):
            snap = game.snapshot()
            snap["actions"] = [list(a) for a in snap["actions"]]
            parent: Any = snap
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = HUGE
            with pytest.raises(InvalidState):
                Game.from_snapshot(snap)
        log = game.log()
        log["setup"][HUGE] = 0
        with pytest.raises(InvalidState):
            Game.replay(log)
        log = game.log()
        log["actions"][0]["seat"] = HUGE
        with pytest.raises(InvalidState):
            Game.replay(log)
    game = Game("guangdong", seed=11, claim_window="eligible")
    while not any(game.table.melds[seat] for seat in range(4)):
        seat = game.seats_to_act[0]
        claims = [a for a in game.legal_actions(seat) if a.kind in ("pung", "chow")]
        game.apply(claims[0] if claims else game.legal_actions(seat)[0])
    seat = next(s for s in range(4) if game.table.melds[s])
    snap = {**game.snapshot(), "format": "hupai-game-snapshot/1", "table": game.table.to_json()}  # the full table
    snap["table"]["melds"][seat][0][3] = HUGE
    with pytest.raises(InvalidState, match="melds"):
        Game.from_snapshot(snap)
    snap = game.snapshot()  # format 2: a meld is a token, the table's ints one flat list
    snap["table"]["melds"][seat][0] = HUGE
    with pytest.raises(InvalidState, match="melds"):
        Game.from_snapshot(snap)
    for index in range(len(snap["table"]["state"])):
        snap = game.snapshot()
        snap["table"]["state"][index] = HUGE
        with pytest.raises(InvalidState, match="state"):
            Game.from_snapshot(snap)


# -- observations -------------------------------------------------------------------------------------------------
def _observation_json(system: str) -> dict[str, Any]:
    game = _started(system)
    seat = game.seats_to_act[0]
    data: dict[str, Any] = game.observation(seat).to_dict()
    assert Observation.from_json(data).to_dict() == data
    return data


@pytest.mark.parametrize("system", SYSTEMS)
def test_observation_json_with_huge_or_deep_values_is_refused(system: str) -> None:
    deep: Any = 0
    for _ in range(10_000):
        deep = [deep]
    for field, value in (("schema_version", HUGE), ("kinds", HUGE), ("kinds", deep), ("seat", HUGE),
                         ("options", {"base": HUGE}), ("extras", {"x": 2**64})):
        data = _observation_json(system)
        data[field] = value
        with pytest.raises(HupaiError):
            Observation.from_json(data)


def test_a_wai_huzi_observation_refuses_legal_actions_beyond_its_20_cards() -> None:
    """Action.from_json reads mahjong's 34 kinds: a Wai Huzi observation holding tile 25 once loaded, then its
    to_json raised IndexError."""
    data = _observation_json("waihuzi")
    seat = data["seat"]
    data["legal_actions"] = [{"kind": "discard", "seat": seat, "tile": 25}]
    with pytest.raises(HupaiError, match="legal_actions"):
        Observation.from_json(data)
    data["legal_actions"] = [{"kind": "chow", "seat": seat, "tile": 0, "tiles": [0, 21, 22]}]
    with pytest.raises(HupaiError, match="legal_actions"):
        Observation.from_json(data)


# -- scoring ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_win_contexts_of_the_wrong_types_are_invalid_hands(system: str) -> None:
    """Each of these raised TypeError, ValueError, OverflowError or MemoryError inside some system's scorer."""
    n = hupai.rules.get(system).num_players
    base: dict[str, Any] = {"winner": 0, "win_tile": 1, "concealed": (1, 2, 3), "num_players": n}
    for field, value in (("winner", None), ("winner", HUGE), ("dealer", None), ("discarder", HUGE),
                         ("num_players", {}), ("num_players", 1.0), ("seat_wind", HUGE), ("first_dealer", HUGE),
                         ("win_tile", "d3"), ("gold", 1.5), ("jokers", 2**62), ("winners_on_tile", HUGE),
                         ("melds", 5), ("concealed", True), ("concealed", (HUGE,)), ("concealed", ("1m",)),
                         ("heavenly", 1), ("event", HUGE), ("shen", 7)):
        with pytest.raises(InvalidHand, match=field):
            WinContext(**{**base, field: value})


def test_score_refuses_melds_given_twice_and_huge_tiles() -> None:
    with pytest.raises(InvalidHand, match="melds"):
        hupai.score("guangdong", "19m19p19s1234567z1m", melds=())
    with pytest.raises(InvalidHand):
        hupai.score("guangdong", "11122233344455m", HUGE)
    with pytest.raises(InvalidHand):
        hupai.score("guangdong", "11122233344455m", discarder=HUGE)
