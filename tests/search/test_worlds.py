"""Sampled worlds (hupai.worlds): every world agrees with the observation it was dealt from, passes the engine's
consistency checks, and plays on; the same observation and seed give the same world whatever the true game."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hupai._world_waits import WAITS
from hupai.actions import Action
from hupai.belief import MatchedWorlds, WaitingWorlds, WorldWeights
from hupai.bots import GreedyBot
from hupai.game import Game, play
from hupai.game.state.consistency import check_table, check_with_rules
from hupai.game.state.table import Table
from hupai.game.state.zipai import check_table_shape
from hupai.worlds import fork, sample, unseen_counts
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.hidden import blind_twin

SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")


def _game_at(rules: str, seed: int, steps: int, window: str = "eligible") -> Game:
    """A game played by GreedyBots for ``steps`` actions (or to its last decision before the end)."""
    game = Game(rules, seed=seed, dealer=seed % (3 if rules in ("kawuxing", "waihuzi") else 4), claim_window=window)
    bots = [GreedyBot(seed + seat) for seat in range(game.rules.num_players)]
    for _ in range(steps):
        seats = game.seats_to_act
        if not seats:
            break
        seat = seats[0]
        before = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
        game.apply(bots[seat].act(game.observation(seat)))
        if game.over:
            return before
    return game


def _public(observation: object) -> tuple[object, ...]:
    fields = ("seat", "rules", "phase", "tile", "source", "dealer", "round_wind", "seat_winds", "counts", "drawn",
              "drawn_from", "hand_sizes", "melds", "discards", "wall_left", "legal_actions", "private")
    return tuple(getattr(observation, name) for name in fields) + (dict(observation.extras),)  # type: ignore[attr-defined]


def _synthetic_actions(game: Game) -> list[Action]:
    """Each seat's last discard as an action (what Yunxiao's 游 check and Kawuxing's 亮倒 check read). A seat
    whose 亮倒 discard was claimed has no pile left to take it from: its declaration is still an action (the
    check reads who declared, not the tile)."""
    table = game.table
    flags = table.extras.get("liangdao") or [False] * table.num_players
    piles = table.discards
    return [Action("discard", seat, piles[seat][-1] if piles[seat] else 0, (), "liangdao" if flags[seat] else "")
            for seat in range(table.num_players) if piles[seat] or flags[seat]]


def _check_world(observation: object, world: Game) -> None:
    obs = observation
    seat = obs.seat  # type: ignore[attr-defined]
    seen = world.observation(seat)
    assert _public(seen) == _public(obs)
    rules = world.rules
    table = world.table
    copies = Counter(rules.tiles())
    held: Counter[int] = Counter()
    for hand in table.hands:
        for kind, count in enumerate(hand):
            held[kind] += count
    assert all(held[kind] <= copies[kind] for kind in held)
    if rules.family == "zipai":
        check_table_shape(json.loads(json.dumps(table.to_json())), "world")
        placed = Counter(table.wall.tiles[table.wall.head:])
        for groups in table.groups:
            for group in groups:
                placed.update(group.cards)
        for pile in table.discards:
            placed.update(pile)
        if table.phase == "claim":
            placed[table.offer] += 1
        assert placed + held == copies  # every card in exactly one place (WH-4)
        for other in range(3):  # WH-11: 19 at rest, one more for the seat in a discard state
            extra = int(table.phase == "turn" and other == table.turn_seat)
            assert table.cards_held(other) == table.at_rest(other) + extra
    else:
        data = json.loads(json.dumps(table.to_json()))
        check_table(rules, world.setup, data, list(table.discards_made))
        restored = Table.from_json(data)
        check_with_rules(rules, "eligible", restored, _synthetic_actions(world))
    result = play(fork(world), [GreedyBot(7) for _ in range(rules.num_players)])
    assert sum(result.payments) == 0


# (a system without a wait table deals waiting worlds as matched ones: no case of its own)
@pytest.mark.parametrize(("rules", "dealt"), [(rules, dealt) for rules in SYSTEMS
                                              for dealt in ("uniform", "weighted", "matched", "waiting")
                                              if dealt != "waiting" or rules in WAITS])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 160), world_seed=st.integers(0, 2**32))
@example(seed=26985815, steps=4, world_seed=0)  # Kawuxing: a 亮倒 discard claimed, its declarer's pile empty
def test_every_sampled_world_is_consistent(rules: str, dealt: str, seed: int, steps: int, world_seed: int) -> None:
    """Uniform, weighted, matched and waiting worlds alike (a weighted world keeps one of several deals the
    observation allows, a matched one such a deal or one moved by swaps of unseen tiles, a waiting one one of
    several such ready hands)."""
    game = _game_at(rules, seed, steps)
    seat = game.seats_to_act[0]
    observation = game.observation(seat)
    dealers = {"uniform": None, "weighted": WorldWeights(8), "matched": MatchedWorlds(8), "waiting": WaitingWorlds(8)}
    world = sample(observation, world_seed, weights=dealers[dealt])
    _check_world(observation, world)


def test_a_yunxiao_seat_at_a_you_level_keeps_its_gold_whatever_is_dealt_before_it() -> None:
    """Found by the property above: seat 2, at 单游 with one tile and four melds, came after seat 1 in the deal,
    whose matched hand took the last unseen golds, so seat 2's hand held no gold and no 游 shape (YX-25, YX-26)."""
    game = _game_at("yunxiao", 63356, 37)
    observation = game.observation(game.seats_to_act[0])
    assert observation.extras["you"] == (0, 0, 1, 0) and observation.hand_sizes[2] == 1
    world = sample(observation, 131943, weights=MatchedWorlds(8))
    assert world.table.hands[2][observation.extras["gold"]] == 1
    _check_world(observation, world)


#: Yunxiao states (seed, steps) where another seat is at a 游 level or holds a gold after its discards, each of
#: which some world seed below dealt inconsistently: a 游 seat left without a gold by the seats dealt before it,
#: a 游 hand built with a fifth copy of the gold's kind (白板 playing as the gold, YX-7, YX-8), a seat at level 0
#: dealt a hand in 游 shape.
YOU_STATES = [(63356, 37), (199, 33), (184, 47), (182, 54), (144, 53), (147, 28), (2108, 13), (780, 37)]


@pytest.mark.parametrize("dealt", ["uniform", "weighted", "matched"])
@pytest.mark.parametrize(("seed", "steps"), YOU_STATES)
def test_yunxiao_worlds_keep_every_you_level(seed: int, steps: int, dealt: str) -> None:
    game = _game_at("yunxiao", seed, steps)
    observation = game.observation(game.seats_to_act[0])
    dealers = {"uniform": None, "weighted": WorldWeights(8), "matched": MatchedWorlds(8)}
    for world_seed in range(6):
        _check_world(observation, sample(observation, world_seed, weights=dealers[dealt]))


@pytest.mark.parametrize("rules", SYSTEMS)
def test_the_same_observation_gives_the_same_world_whatever_the_true_game(rules: str) -> None:
    game = _game_at(rules, 11, 30)
    seat = game.seats_to_act[0]
    other = (seat + 1) % game.rules.num_players
    twin = blind_twin(game, other)
    assert twin.table.hands[other] != game.table.hands[other]  # the true games differ
    observation, same = game.observation(seat), twin.observation(seat)
    assert observation == same
    worlds = [sample(observation, 5).table.to_json(), sample(same, 5).table.to_json()]
    assert worlds[0] == worlds[1]
    assert sample(observation, 6).table.to_json() != worlds[0]


@pytest.mark.parametrize("rules", SYSTEMS)
def test_unseen_tiles_are_the_other_hands_and_the_wall(rules: str) -> None:
    game = _game_at(rules, 3, 25)
    seat = game.seats_to_act[0]
    observation = game.observation(seat)
    unseen = sum(unseen_counts(observation))
    shown = sum(len(tiles) for other, tiles in enumerate(observation.extras.get("revealed", ())) if other != seat)
    others = sum(observation.hand_sizes) - observation.hand_sizes[seat] - shown  # a 亮倒 hand is seen (KW-16)
    assert unseen == others + observation.wall_left


def test_fork_plays_on_alone() -> None:
    game = _game_at("guangdong", 9, 20)
    copy = fork(game)
    before = game.table.to_json()
    play(copy, [GreedyBot(1) for _ in range(4)])
    assert copy.over and game.table.to_json() == before


def test_a_finished_hand_has_no_world() -> None:
    from hupai.errors import HupaiError

    game = Game("guangdong", seed=4, claim_window="eligible")
    play(game, [GreedyBot(seat) for seat in range(4)])
    with pytest.raises(HupaiError, match="finished"):
        sample(game.observation(0), 1)
