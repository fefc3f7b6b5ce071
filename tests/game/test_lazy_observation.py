"""Observations an observer builds from the rows it keeps (issues 21 and 30): every field has the value it had when
the observation was made, however the game moved on since (a row an observer rebuilds later is a new object, never
the old one changed); the hand sizes, which follow from the melds and the decision, are the tiles the table holds;
such an observation is in every way (equality, JSON, copies, ``dataclasses.replace``) the observation built from
its JSON."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, Observer
from hupai.observation import Observation

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]
MAHJONG = SYSTEMS[:3]


def _values(observation: Observation) -> tuple[object, ...]:
    """Every field, read now."""
    return tuple(getattr(observation, f.name) for f in dataclasses.fields(Observation))


def _bots(game: Game, seed: int) -> list[object]:
    return [(GreedyBot if (seat + seed) % 2 else RandomBot)(seed * 4 + seat) for seat in range(game.table.num_players)]


@pytest.mark.parametrize("rules", SYSTEMS)
def test_fields_read_after_the_game_moved_on_have_their_values_at_creation(rules: str) -> None:
    """Every field of every seat's observation, left unread while the game plays on (up to the hand's end), reads
    the same as a twin observation read whole at once, and as that twin's JSON read back."""
    checked = 0
    for seed in range(3):
        game = Game(rules, seed=seed)
        observer = Observer(game)
        bots = _bots(game, seed)
        waiting: list[tuple[Observation, tuple[object, ...], str]] = []
        step = 0
        while game.seats_to_act:
            for seat in range(game.table.num_players):
                twin = observer.observe(seat)
                waiting.append((observer.observe(seat), _values(twin), twin.to_json()))
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(observer.observe(seat)))
            step += 1
            if step % 7 == 0:  # read them a few actions later (a claim, a kong, the hand's end between)
                for unread, values, text in waiting:
                    assert _values(unread) == values
                    assert unread.to_json() == text and Observation.from_json(text) == unread
                    checked += 1
                waiting = []
        for unread, values, text in waiting:  # and once the hand is over
            assert _values(unread) == values and unread.to_json() == text
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("rules", SYSTEMS)
def test_hand_sizes_are_the_tables_and_the_decision_is_the_games(rules: str) -> None:
    """At every decision of seeded hands (claims and the end included), each seat's hand sizes (which the observer
    works out from the melds and the decision) are its tiles counted on the table now, and phase, seats to act,
    tile and source are :attr:`Game.current`'s."""
    phases = set()
    for seed in range(12):
        game = Game(rules, seed=seed, dealer=seed % 3)
        observer = Observer(game)
        bots = _bots(game, seed)
        while True:
            current = game.current
            counted = tuple(sum(hand) for hand in game.table.hands)
            for seat in range(game.table.num_players):
                observation = observer.observe(seat)
                assert (observation.phase, observation.to_act, observation.source) == (
                    current.phase, current.seats, current.source)
                if rules in MAHJONG:  # a drawn tile is its drawer's (a Wai Huzi card offered is face up)
                    assert observation.tile == (current.tile if current.phase not in ("turn", "predraw")
                                                or seat == current.seats[0] else -1)
                assert observation.hand_sizes == counted
            phases.add(current.phase)
            if not current.seats:
                break
            seat = current.seats[0]
            game.apply(bots[seat].act(observer.observe(seat)))
    assert {"turn", "claim", "over"} <= phases


def test_a_robbed_kong_waits_with_its_tile_in_the_kongers_hand() -> None:
    """The one phase where a seat off its turn holds a tile more: an added kong open to robbing."""
    for seed in range(300):
        game = Game("guangdong", seed=seed)
        bots = _bots(game, seed)
        while game.seats_to_act and game.current.phase != "rob":
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
        if game.current.phase == "rob":
            break
    else:  # pragma: no cover
        pytest.fail("no robbable kong in 300 seeded hands")
    konger = game.current.source
    sizes = game.observation(konger).hand_sizes
    assert sizes == tuple(sum(hand) for hand in game.table.hands)
    assert sizes[konger] == 13 + 1 - 3 * len(game.table.melds[konger])


@pytest.mark.parametrize("rules", SYSTEMS)
def test_an_observers_observation_is_the_observation_built_whole(rules: str) -> None:
    game = Game(rules, seed=5)
    seat = game.seats_to_act[0]
    kept, whole = game.observation(seat), Observation.from_json(game.observation(seat).to_json())
    assert type(whole) is Observation and kept == whole and whole == kept and kept != game.observation((seat + 1) % 3)
    assert type(kept) is Observation and repr(kept) == repr(whole)
    for copied in (copy.copy(kept), copy.copy(game.observation(seat))):
        assert type(copied) is Observation and copied == whole
    replaced = dataclasses.replace(game.observation(seat), wall_left=0)
    assert replaced.hand_sizes == whole.hand_sizes and replaced == dataclasses.replace(whole, wall_left=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.observation(seat).hand_sizes = ()  # type: ignore[misc]
    with pytest.raises(TypeError):  # as an observation built whole: its mappings are neither hashable nor pickled
        hash(kept)
    with pytest.raises(TypeError):
        pickle.dumps(kept)
    with pytest.raises(AttributeError):
        kept.no_such_field  # type: ignore[attr-defined]  # noqa: B018
