"""``Game.events_for(seat, since)``: each seat's public event stream in the client JSON contract (issue 22 item 3)."""

from __future__ import annotations

import json

import hupai
import jsonschema
import pytest
from hidden import blind_twin
from hupai.bots import RandomBot
from hupai.events import AMOUNT_TYPES, HIDDEN_TYPES, client_event
from hupai.game import Game

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_reads_since_the_last_one_add_up_to_the_seats_stream(system: str) -> None:
    game = Game(system, seed=4)
    n = game.rules.num_players
    bots = [RandomBot(seat) for seat in range(n)]
    read: list[list[dict[str, object]]] = [[] for _ in range(n)]
    while True:
        for seat in range(n):
            read[seat].extend(game.events_for(seat, since=len(read[seat])))
        if game.over:
            break
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
    kinds = 20 if system == "waihuzi" else 34
    for seat in range(n):
        assert read[seat] == [client_event(e, kinds) for e in game.visible_events(seat)]
        assert read[seat] == game.events_for(seat)
        json.dumps(read[seat])  # plain JSON
        for event, raw in zip(read[seat], game.events, strict=True):
            assert event["type"] == raw.type
            if raw.type in HIDDEN_TYPES and raw.seat != seat:
                assert event.get("tiles") is None and event["tile"] is None  # another seat's deal or draw
            if raw.type in AMOUNT_TYPES:
                assert event.get("tiles", []) == list(raw.tiles)
    assert game.events_for(0, since=10_000) == []


@pytest.mark.parametrize("system", ["guangdong", "yunxiao", "kawuxing"])
def test_the_stream_does_not_depend_on_another_seats_concealed_tiles(system: str) -> None:
    game = Game(system, seed=8)
    n = game.rules.num_players
    bots = [RandomBot(seat) for seat in range(n)]
    for _ in range(40):
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
    twin = blind_twin(game, 1)
    assert twin.table.hands[1] != game.table.hands[1]
    # The twin's log still holds the original deal: rebuild its events from its own state is the engine's job; the
    # stream a seat sees masks the other seat's dealt and drawn tiles, so both games show seat 0 the same stream.
    assert twin.events_for(0) == game.events_for(0)


def test_bad_arguments_are_refused() -> None:
    game = Game("guangdong", seed=1)
    for since in (-1, 1.0, True, "3", None):
        with pytest.raises(hupai.HupaiError):
            game.events_for(0, since=since)  # type: ignore[arg-type]
    for seat in (-1, 4, True, "0"):
        with pytest.raises(hupai.HupaiError):
            game.events_for(seat)  # type: ignore[arg-type]


def test_client_events_follow_the_contracts_tile_notation() -> None:
    schema = {"type": "object", "required": ["type"],
              "properties": {"tile": {"type": ["string", "null"]}, "tiles": {"type": "array"}}}
    game = Game("guangdong", seed=3)
    for event in game.events_for(0):
        jsonschema.validate(event, schema)


@pytest.mark.parametrize("system", SYSTEMS)
def test_event_count_is_the_number_of_events_restored_games_included(system: str) -> None:
    """``Game.event_count`` (what a server's state message says, without building the events) is
    ``len(game.events)`` after every action, and in a game restored from a snapshot mid-hand (its events are
    rebuilt from the setup and actions first)."""
    game = Game(system, seed=7)
    bots = [RandomBot(seat) for seat in range(game.rules.num_players)]
    while not game.over:
        assert game.event_count == len(game.events)
        if len(game.actions) == 12:
            restored = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
            assert restored.event_count == len(game.events) > 0
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
    assert game.event_count == len(game.events)
