"""``Game.spectator_view()`` and ``Game.spectator_events()``: what every seat may know and no more (issue 24 item 2).

A spectator's view has a seat's observation's JSON shape with ``"seat": null``, no hand, no drawn tile, no legal
actions; it must not change when every concealed tile and the wall change (``hidden.blind_table``), in any
phase, for every rule system, across whole hands."""

from __future__ import annotations

import json
from typing import Any

import hupai
import pytest
from hidden import blind_table
from hupai.bots import GreedyBot, RandomBot
from hupai.events import HIDDEN_TYPES, client_event
from hupai.game import Game
from hupai.game.state.wall import stacked_wall

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _hands(system: str, seeds: tuple[int, ...]) -> list[list[Game]]:
    """Whole hands of ``system``: the game at each of its decisions (every other one, to keep the test short)."""
    played = []
    for seed in seeds:
        game = Game(system, seed=seed, dealer=seed % 3, claim_window="all")
        n = game.rules.num_players
        bots = [GreedyBot(s) if (seed + s) % 2 else RandomBot(s) for s in range(n)]
        states = []
        step = 0
        while True:
            if step % 2 == 0 or game.over:
                states.append(Game.from_snapshot(json.loads(json.dumps(game.snapshot()))))
            if game.over:
                break
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
            step += 1
        played.append(states)
    return played


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_view_does_not_change_with_any_concealed_tile_the_wall_or_the_seed(system: str) -> None:
    changed = 0
    for states in _hands(system, (2**63 + 5, 2**62 + 77, 2**64 - 1234)):
        for game in states:
            view = game.spectator_view()
            twin = blind_table(game)
            changed += any(twin.table.hands[s] != game.table.hands[s] for s in range(game.rules.num_players))
            assert twin.spectator_view() == view, f"the view shows a concealed tile at phase {view['phase']}"
            text = json.dumps(view)
            assert str(game.setup["seed"]) not in text and '"seed"' not in text and '"wall":' not in text
        assert states[-1].spectator_view()["result"] is not None
    assert changed > 50  # the twins did differ


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_view_has_a_seats_shape_without_a_seats_own_facts(system: str) -> None:
    for game in _hands(system, (9,))[0]:
        view = game.spectator_view()
        n = game.rules.num_players
        seats = [game.observation(s).to_dict() for s in range(n)]
        assert set(view) == set(seats[0]) - {"private"}
        assert view["seat"] is None and view["hand"] == [] and view["drawn"] is None
        assert view["drawn_from"] == "" and view["legal_actions"] == []
        for key in ("rules", "options", "phase", "to_act", "dealer", "round_wind", "seat_winds", "hand_sizes",
                    "discards", "wall_left", "extras", "result"):
            assert all(view[key] == seat[key] for seat in seats), key  # what every seat sees alike
        for s in range(n):  # a seat's melds as every other seat sees them
            assert all(view["melds"][s] == seats[o]["melds"][s] for o in range(n) if o != s)
        if all(seat["tile"] == seats[0]["tile"] for seat in seats):
            assert view["tile"] == seats[0]["tile"]
        else:  # a drawn tile, its drawer's alone
            assert view["tile"] is None


@pytest.mark.parametrize("system, hidden", [("yunxiao", True), ("kawuxing", True), ("guangdong", False)])
def test_a_face_down_concealed_kong_stays_face_down(system: str, hidden: bool) -> None:
    """Yunxiao and Kawuxing lay a 暗杠 face down: the spectator sees the kong, not its kind, in the view and in
    the events (Guangdong shows it)."""
    rules = hupai.rules.get(system)
    n = rules.num_players
    kinds = sorted(set(rules.tiles()))
    first = kinds[0]
    rest = [k for k in kinds[1:] for _ in range(3)]  # three of each other kind, dealt in turn
    hands = [[first] * 4 + rest[:10]] + [rest[10 + 13 * i:23 + 13 * i] for i in range(n - 1)]
    game = Game(system, wall=stacked_wall(hands, tiles=rules.tiles()), claim_window="all")
    kong = next(a for a in game.legal_actions(0) if a.kind == "kong")
    game.apply(kong)
    (meld,) = game.spectator_view()["melds"][0]
    assert meld["concealed"] and (meld["tiles"] == []) is hidden
    assert len(game.observation(0).to_dict()["melds"][0][0]["tiles"]) == 4  # its own seat sees it
    while game.table.turn_seat == 0 or game.current.phase != "turn":  # on to another seat's turn: the kong's
        seat = game.seats_to_act[0]                                      # owner is then the view's watcher
        legal = game.legal_actions(seat)
        game.apply(next((a for a in legal if a.kind == "pass"), None) or next(a for a in legal if a.kind == "discard"))
    (meld,) = game.spectator_view()["melds"][0]
    assert meld["concealed"] and (meld["tiles"] == []) is hidden
    event = next(e for e in game.spectator_events() if e["type"] == "kong")
    assert ("tiles" not in event) is hidden


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_event_stream_masks_every_draw_and_shows_what_every_seat_sees(system: str) -> None:
    (states,) = _hands(system, (31,))
    game = states[-1]
    n = game.rules.num_players
    kinds = len(game.table.hands[0])
    stream = game.spectator_events()
    seats = [game.events_for(s) for s in range(n)]
    assert len(stream) == len(game.events)
    for index, (event, raw) in enumerate(zip(stream, game.events, strict=True)):
        if raw.type in HIDDEN_TYPES:
            assert event["tile"] is None and "tiles" not in event
        # What a seat other than the event's own sees of it: the spectator sees no more.
        assert any(event == seats[s][index] for s in range(n) if s != raw.seat), (index, raw)
        if raw.type not in HIDDEN_TYPES and raw.type != "kong":
            assert event == client_event(raw, kinds)  # the rest as it happened
    assert game.spectator_events(since=5) == stream[5:]
    assert game.spectator_events(since=10_000) == []
    for since in (-1, 1.0, True, "3", None):
        with pytest.raises(hupai.HupaiError):
            game.spectator_events(since=since)  # type: ignore[arg-type]


def _until(system: str, found: Any, seeds: range = range(60)) -> Game:
    """The first game state of ``system`` (GreedyBots, seeds in turn) at which ``found(game)`` holds."""
    for seed in seeds:
        game = Game(system, seed=seed, claim_window="all")
        bots = [GreedyBot(s) for s in range(game.rules.num_players)]
        while not game.over:
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
            if found(game):
                return game
    raise AssertionError(f"no {system} hand reached the state sought")


def test_kw16_a_liangdao_hand_is_shown_to_spectators_as_to_every_seat() -> None:
    """KW-16: a 亮倒 hand's concealed tiles are shown face up to everyone: the spectator too."""
    game = _until("kawuxing", lambda g: any(g.table.extras["liangdao"]))
    view = game.spectator_view()
    declarer = view["extras"]["liangdao"].index(True)
    assert view["extras"]["revealed"][declarer]  # the tiles shown
    for seat in range(3):
        assert game.observation(seat).to_dict()["extras"] == view["extras"]
    assert blind_table(game).spectator_view() == view  # the twin keeps the shown hand (nothing else shows)


def test_wh9_a_wai_shows_one_card_up_and_a_peng_all_to_spectators() -> None:
    """WH-9: a 歪 lies one card up, two down; a 碰 all up. The spectator sees what every seat sees."""
    game = _until("waihuzi", lambda g: any(grp.type == "wai" for groups in g.table.groups for grp in groups))
    view = game.spectator_view()
    for seat, groups in enumerate(game.table.groups):
        for index, group in enumerate(groups):
            shown = view["melds"][seat][index]
            assert shown["type"] == group.type
            if group.type == "wai":
                assert shown["concealed"] and len(shown["tiles"]) == 1
            elif group.type in ("peng", "piao", "chi"):
                assert len(shown["tiles"]) == len(group.cards)
            assert all(shown == game.observation(o).to_dict()["melds"][seat][index] for o in range(3) if o != seat)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_view_matches_the_spectator_schema_and_a_seats_observation_does_not(system: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    document = hupai.jsonform.schema("spectator")
    validator = jsonschema.validators.validator_for(document)(document)
    for game in _hands(system, (13,))[0]:
        validator.validate(game.spectator_view())
    seat = game.observation(0).to_dict()
    assert not validator.is_valid(seat) and not validator.is_valid({**seat, "seat": None})
    assert hupai.jsonform.schema("observation")["properties"]["seat"] != document["properties"]["seat"]  # a copy
