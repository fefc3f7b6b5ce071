"""``Game.events_for(seat, since)``: each seat's public event stream in the client JSON contract (issue 22 item 3)."""

from __future__ import annotations

import json

import hupai
import jsonschema
import pytest
from hupai.bots import RandomBot
from hupai.events import AMOUNT_TYPES, HIDDEN_TYPES, EventLog, client_event
from hupai.game import Game
from hupai.game.state.wall import stacked_wall

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


class _KongFirst(RandomBot):
    """RandomBot that declares every kong it may, so that concealed kongs (face down in Yunxiao and Kawuxing) come."""

    def act(self, observation: hupai.Observation) -> hupai.Action:
        kongs = [a for a in observation.legal_actions if a.kind == "kong"]
        return kongs[0] if kongs else super().act(observation)


def _with_others_hidden_changed(game: Game, seat: int) -> tuple[Game, int]:
    """A copy of ``game`` whose event log differs in everything ``seat`` may not see: every other seat's dealt and
    drawn tiles, and (where the rules lay them face down) the kind of every other seat's concealed kong. Returns it
    with the number of events changed."""
    twin = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
    events = twin.events  # built from the log: the list the stream is read from
    kinds = len(twin.table.hands[0])
    hidden_kongs = set() if twin.rules.shows_concealed_kongs else {  # (Wai Huzi's groups show their kind, WH-9)
        m.tiles[0] for s, melds in enumerate(getattr(twin.table, "melds", ())) if s != seat
        for m in melds if m.type == "kong" and m.concealed}
    changed = 0
    for index, event in enumerate(events):
        if event.seat == seat:
            continue
        if event.type in HIDDEN_TYPES:
            events[index] = event._replace(tile=-1 if event.tile < 0 else (event.tile + 1) % kinds,
                                           tiles=tuple((t + 1) % kinds for t in event.tiles))
            changed += 1
        elif event.type == "kong" and not event.info and event.tiles and event.tiles[0] in hidden_kongs:
            other = next(k for k in range(kinds) if k not in hidden_kongs and k != events[index - 1].tile)
            events[index] = event._replace(tiles=(other,) * len(event.tiles))
            changed += 1
    twin._flow.events = EventLog.of(events, twin.num_players)
    assert twin.events == events
    return twin, changed


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_stream_does_not_depend_on_another_seats_hidden_tiles(system: str) -> None:
    """What a seat reads holds nothing of another seat's dealt or drawn tiles, nor of a face-down concealed kong's
    kind (Yunxiao and Kawuxing lay them face down): changing all of those in the log leaves every seat's stream
    the same."""
    rules = hupai.rules.get(system)
    n = rules.num_players
    kinds = sorted(set(rules.tiles()))
    rest = [k for k in kinds[1:] for _ in range(3)]  # seat 0 is dealt four alike: a concealed kong at once
    stacked = stacked_wall([[kinds[0]] * 4 + rest[:10]] + [rest[10 + 13 * i:23 + 13 * i] for i in range(n - 1)],
                           tiles=rules.tiles())
    kongs = 0
    for seed in range(6):
        mahjong = system != "waihuzi"
        game = Game(system, wall=stacked) if seed == 0 and mahjong else Game(system, seed=seed, dealer=seed % 3)
        bots = [_KongFirst(seed * 10 + s) for s in range(n)]
        while not game.over:
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
        for seat in range(n):
            twin, changed = _with_others_hidden_changed(game, seat)
            assert changed >= n - 1  # the other seats' deals at least
            assert twin.events != game.events
            assert twin.events_for(seat) == game.events_for(seat)
        if system in ("yunxiao", "kawuxing"):
            kongs += sum(m.type == "kong" and m.concealed for melds in game.table.melds for m in melds)
    if system in ("yunxiao", "kawuxing"):
        assert kongs, "no concealed kong was played: the face-down case went untested"


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
