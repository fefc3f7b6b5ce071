"""Weighted and matched worlds (hupai.belief): the weighting is deterministic for a seed, keeps hands in proportion
to their weights, and deals the other seats hands nearer a win than uniform worlds do, as real hands are late in a
hand; matched worlds deal each seat's hand at a level drawn from real hands' shares."""

from __future__ import annotations

import dataclasses
import random
from statistics import mean
from typing import Any

import pytest
from hupai._world_levels import SHARES
from hupai._world_weights import TABLES
from hupai.belief import (
    LEVELS,
    MELD_BUCKETS,
    TURN_BUCKETS,
    WAIT_CLASSES,
    MatchedWorlds,
    WaitingWorlds,
    WorldWeights,
    _descend,
    bucket,
    levels,
    turns_played,
    wait_classes,
)
from hupai.errors import HupaiError
from hupai.ev import EVBot
from hupai.game import Game
from hupai.worlds import sample, unseen_counts

SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")


def _late(rules: str, seed: int = 5, steps: int = 40) -> Game:
    """A hand played by EVBots for ``steps`` decisions (fewer if it would end)."""
    game = Game(rules, seed=seed, claim_window="eligible")
    bots = [EVBot(seat) for seat in range(game.rules.num_players)]
    for _ in range(steps):
        seat = game.seats_to_act[0]
        action = bots[seat].act(game.observation(seat))
        probe = Game.from_snapshot(game.snapshot())
        probe.apply(action)
        if probe.over:
            break
        game.apply(action)
    return game


def _free(observation: object, rules: str) -> list[int]:
    extras = observation.extras  # type: ignore[attr-defined]
    seat = observation.seat  # type: ignore[attr-defined]
    revealed = extras.get("revealed") or ()
    return [o for o in range(observation.num_players)  # type: ignore[attr-defined]
            if o != seat and not (o < len(revealed) and revealed[o]) and not (extras.get("you") or [0] * 4)[o]]


@pytest.mark.parametrize("rules", SYSTEMS)
def test_every_system_has_a_calibrated_table(rules: str) -> None:
    weights = TABLES[rules]["weights"]
    assert len(weights) == TURN_BUCKETS and all(len(row) == MELD_BUCKETS for row in weights)
    assert all(len(cell) == LEVELS and all(w > 0 for w in cell) for row in weights for cell in row)
    # the calibration's main finding: after some turns a hand one step from ready or nearer is likelier than a
    # uniform deal makes it, a hand far from a win much less likely (Kawuxing: a ready EVBot declares 亮倒, its
    # hand shown, so a hidden hand is rarely ready: its weight is at one step)
    assert max(weights[3][0][:2]) > 2 > 0.5 > weights[3][0][LEVELS - 1]


@pytest.mark.parametrize("rules", SYSTEMS)
def test_weighted_worlds_are_deterministic_for_a_seed(rules: str) -> None:
    game = _late(rules)
    observation = game.observation(game.seats_to_act[0])
    weights = WorldWeights(8)
    first = sample(observation, 11, weights=weights).table.to_json()
    assert sample(observation, 11, weights=WorldWeights(8)).table.to_json() == first
    assert sample(observation, random.Random(11), weights=weights).table.to_json() == first


@pytest.mark.parametrize("rules", ["guangdong", "yunxiao", "waihuzi"])
def test_weighted_worlds_deal_the_other_seats_nearer_a_win(rules: str) -> None:
    game = _late(rules)
    seat = game.seats_to_act[0]
    observation = game.observation(seat)
    others = _free(observation, rules)
    assert others and all(turns_played(observation, o) >= 4 for o in others)

    def mean_level(weights: WorldWeights | None) -> float:
        found = []
        for world_seed in range(40):
            world = sample(observation, world_seed, weights=weights)
            found += [levels(observation, o, [world.table.hands[o]])[0] for o in others]
        return mean(found)

    assert mean_level(WorldWeights(16)) < mean_level(None) - 0.2


def test_pick_keeps_hands_in_proportion_to_their_weights() -> None:
    game = _late("guangdong")
    observation = game.observation(game.seats_to_act[0])
    other = _free(observation, "guangdong")[0]
    turns, melds = bucket(observation, other)
    row = [1.0] * LEVELS
    table = {"guangdong": {"weights": [[list(row) for _ in range(MELD_BUCKETS)] for _ in range(TURN_BUCKETS)]}}
    table["guangdong"]["weights"][turns][melds] = [1.0, 1.0, 1.0, 9.0, 0.0]  # level 3 nine times level 2's
    weights = WorldWeights(2, table)
    near = bytes(game.table.hands[other])
    world = sample(observation, 3)
    hands = [bytes(world.table.hands[other])]
    found = levels(observation, other, hands + [near])
    assert found[0] != found[1]
    rng = random.Random(4)
    picks = [weights.pick(observation, other, [hands[0], near], rng) for _ in range(2000)]
    share = picks.count(0) / len(picks)
    expected = table["guangdong"]["weights"][turns][melds]
    a, b = expected[found[0]], expected[found[1]]
    assert abs(share - a / (a + b)) < 0.04


def test_candidates_are_checked() -> None:
    with pytest.raises(HupaiError, match="candidates"):
        WorldWeights(0)
    with pytest.raises(HupaiError, match="candidates"):
        WorldWeights(True)  # type: ignore[arg-type]


@pytest.mark.parametrize("tables", [
    [],
    {"guangdong": {}},
    {"guangdong": {"weights": [[1.0]]}},
    {"guangdong": {"weights": "heavy"}},
    {"guangdong": {"weights": [[[1.0] * LEVELS] * MELD_BUCKETS] * (TURN_BUCKETS - 1)}},
    {"guangdong": {"weights": [[[float("nan")] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS}},
    {"guangdong": {"weights": [[[-1.0] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS}},
])
def test_malformed_weight_tables_are_refused(tables: Any) -> None:
    with pytest.raises(HupaiError, match="world weight"):
        WorldWeights(4, tables)


def test_a_well_formed_weight_table_is_taken() -> None:
    table = {"guangdong": {"weights": [[[1.0] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS}}
    assert WorldWeights(4, table).tables is table


def test_candidates_are_uniform_deals_of_the_unseen_tiles() -> None:
    """With every level weighing the same, a weighted world deals another seat's hand as a uniform world does:
    each unseen kind in proportion to its unseen copies (the candidates are dealt as one numpy array)."""
    game = _late("guangdong")
    observation = game.observation(game.seats_to_act[0])
    other = _free(observation, "guangdong")[0]
    flat = {"guangdong": {"weights": [[[1.0] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS}}
    weights = WorldWeights(8, flat)
    pool = unseen_counts(observation)
    need = observation.hand_sizes[other]
    worlds = 600
    held = [0] * 34
    for world_seed in range(worlds):
        hand = sample(observation, world_seed, weights=weights).table.hands[other]
        assert sum(hand) == need and all(h <= p for h, p in zip(hand, pool, strict=True))
        held = [a + b for a, b in zip(held, hand, strict=True)]
    total = sum(pool)
    for kind in range(34):
        expected = worlds * need * pool[kind] / total
        assert abs(held[kind] - expected) < 5 * expected ** 0.5 + 2, (kind, held[kind], expected)


def _shares(rules: str, cell: list[float], at: tuple[int, int] | None = None) -> dict[str, Any]:
    """A share table for ``rules`` with ``cell`` in every bucket (or only at ``at``, 1.0 for level 4 elsewhere)."""
    other = cell if at is None else [0.0] * (LEVELS - 1) + [1.0]
    table = [[list(other) for _ in range(MELD_BUCKETS)] for _ in range(TURN_BUCKETS)]
    if at is not None:
        table[at[0]][at[1]] = list(cell)
    return {rules: {"shares": table}}


@pytest.mark.parametrize("rules", SYSTEMS)
def test_every_system_has_real_level_shares(rules: str) -> None:
    shares = SHARES[rules]["shares"]
    assert len(shares) == TURN_BUCKETS and all(len(row) == MELD_BUCKETS for row in shares)
    assert all(len(cell) == LEVELS and abs(sum(cell) - 1) < 0.01 for row in shares for cell in row)
    # real hands come nearer a win as a seat plays and melds: after 8 turns with 2 melds most are ready or one step
    # away (Kawuxing: a ready hand is mostly shown by 亮倒, so one step away)
    assert sum(shares[4][2][:2]) > 0.6 > sum(shares[0][0][:2])


@pytest.mark.parametrize("rules", SYSTEMS)
def test_matched_worlds_are_deterministic_and_read_only_the_observation(rules: str) -> None:
    from tests.hidden import blind_twin

    game = _late(rules, steps=20)
    seat = game.seats_to_act[0]
    twins = [(other, blind_twin(game, other)) for other in range(game.rules.num_players) if other != seat]
    other, twin = next((o, t) for o, t in twins if t.table.hands[o] != game.table.hands[o])  # the true games differ
    observation, same = game.observation(seat), twin.observation(seat)
    assert observation == same
    first = sample(observation, 11, weights=MatchedWorlds(8)).table.to_json()
    assert sample(same, 11, weights=MatchedWorlds(8)).table.to_json() == first
    assert sample(observation, random.Random(11), weights=MatchedWorlds(8)).table.to_json() == first
    assert sample(observation, 12, weights=MatchedWorlds(8)).table.to_json() != first


@pytest.mark.parametrize("rules", ["guangdong", "yunxiao", "kawuxing"])
@pytest.mark.parametrize("goal", [0, 1])
def test_matched_worlds_deal_the_level_drawn(rules: str, goal: int) -> None:
    """With every share on one level, each other seat's hand is dealt at that level, also where no uniform
    candidate was (a ready hand is rare among eight uniform deals): the swaps move one there."""
    game = _late(rules, steps=20)
    observation = game.observation(game.seats_to_act[0])
    others = _free(observation, rules)
    assert others
    cell = [0.0] * LEVELS
    cell[goal] = 1.0
    matched = MatchedWorlds(8, _shares(rules, cell))
    found = []
    for world_seed in range(12):
        world = sample(observation, world_seed, weights=matched)
        found += [levels(observation, o, [world.table.hands[o]])[0] for o in others]
    assert found.count(goal) >= 0.9 * len(found)
    uniform = []
    for world_seed in range(12):
        world = sample(observation, world_seed)
        uniform += [levels(observation, o, [world.table.hands[o]])[0] for o in others]
    assert uniform.count(goal) < 0.5 * len(uniform)  # what the shares changed


def test_matched_levels_follow_the_shares_of_the_bucket() -> None:
    game = _late("guangdong")
    observation = game.observation(game.seats_to_act[0])
    other = _free(observation, "guangdong")[0]
    matched = MatchedWorlds(16, _shares("guangdong", [0.5, 0.0, 0.5, 0.0, 0.0], bucket(observation, other)))
    rng = random.Random(2)
    goals = [matched.target(observation, other, rng) for _ in range(2000)]
    assert set(goals) == {0, 2} and abs(goals.count(0) / len(goals) - 0.5) < 0.04


def test_a_hand_is_moved_down_by_swaps_of_unseen_tiles() -> None:
    import numpy as np

    game = _late("guangdong")
    observation = game.observation(game.seats_to_act[0])
    other = _free(observation, "guangdong")[0]
    pool = unseen_counts(observation)
    world = sample(observation, 3)
    row = np.frombuffer(bytes(world.table.hands[other]), dtype=np.uint8)
    start = levels(observation, other, row[None, :])[0]
    assert start >= 2
    moved = _descend(observation, other, row, pool, 0, random.Random(5))
    assert levels(observation, other, moved[None, :])[0] == 0
    assert moved.sum() == row.sum() and all(int(m) <= p for m, p in zip(moved, pool, strict=True))
    assert int(np.abs(moved.astype(int) - row.astype(int)).sum()) == 2 * start  # one swap a level


@pytest.mark.parametrize("shares", [
    [],
    {"guangdong": {}},
    {"guangdong": {"shares": [[1.0]]}},
    {"guangdong": {"shares": [[[0.0] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS}},
    {"guangdong": {"shares": [[[float("nan")] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS}},
    {"guangdong": {"shares": [[[1.0] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS, "discarded": 0}},
    {"guangdong": {"shares": [[[1.0] * LEVELS] * MELD_BUCKETS] * TURN_BUCKETS, "discarded": "few"}},
])
def test_malformed_share_tables_are_refused(shares: Any) -> None:
    with pytest.raises(HupaiError, match="world level shares"):
        MatchedWorlds(4, shares)


def test_matched_hands_hold_fewer_copies_of_their_seats_discards() -> None:
    """Real hands hold copies of the kinds their seat discarded less often than uniform deals (``discarded``), and
    matched worlds deal them so: a ratio of 1 leaves the kept hands as the level alone picks them."""
    game = _late("guangdong")
    observation = game.observation(game.seats_to_act[0])
    others = _free(observation, "guangdong")
    assert SHARES["guangdong"]["discarded"] < 0.5

    def held(ratio: float) -> float:
        table = dict(SHARES["guangdong"], discarded=ratio)
        matched = MatchedWorlds(32, {"guangdong": table})
        count = 0
        for world_seed in range(30):
            hands = sample(observation, world_seed, weights=matched).table.hands
            count += sum(hands[o][kind] for o in others for kind in set(observation.discards[o]))
        return count / 30

    assert held(0.1) < 0.6 * held(1.0)


def test_wait_classes_count_the_unseen_copies_of_the_waits_and_a_discarded_wait() -> None:
    """123m 456m 789m 11p 23p waits on 1p (two copies left, both unseen by its seat) and 4p (four): band 5-6; the
    same hand with 1p discarded by its seat is of the same band, discarded; a fifth copy is no wait."""
    import numpy as np

    game = Game("guangdong", seed=3, claim_window="eligible")
    observation = game.observation(game.seats_to_act[0])
    other = (observation.seat + 1) % 4
    hand = np.zeros(34, dtype=np.uint8)
    for kind in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 11):
        hand[kind] += 1
    assert wait_classes(observation, other, hand[None, :], unseen_counts(observation)).tolist() == [2 * 2]
    discarded = observation.discards[other] + (9,)
    thrown = dataclasses.replace(observation, discards=tuple(discarded if s == other else p
                                                             for s, p in enumerate(observation.discards)))
    assert wait_classes(thrown, other, hand[None, :], unseen_counts(thrown)).tolist() == [2 * 2 + 1]
    four = np.zeros(34, dtype=np.uint8)  # 1111m 234m 567m 8m 99m: four copies of 1m, no fifth to wait on
    for kind, copies in ((0, 4), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 2)):
        four[kind] = copies
    classes = wait_classes(observation, other, np.stack([hand, four]), unseen_counts(observation))
    assert classes[0] == 4 and classes[1] < WAIT_CLASSES


@pytest.mark.parametrize("rules", SYSTEMS)
def test_waiting_worlds_are_deterministic_and_read_only_the_observation(rules: str) -> None:
    from tests.hidden import blind_twin

    game = _late(rules, steps=20)
    seat = game.seats_to_act[0]
    twins = [(other, blind_twin(game, other)) for other in range(game.rules.num_players) if other != seat]
    other, twin = next((o, t) for o, t in twins if t.table.hands[o] != game.table.hands[o])  # the true games differ
    observation, same = game.observation(seat), twin.observation(seat)
    assert observation == same
    first = sample(observation, 11, weights=WaitingWorlds(8)).table.to_json()
    assert sample(same, 11, weights=WaitingWorlds(8)).table.to_json() == first
    assert sample(observation, random.Random(11), weights=WaitingWorlds(8)).table.to_json() == first
    assert sample(observation, 12, weights=WaitingWorlds(8)).table.to_json() != first


def _ready_classes(observation: Any, others: list[int], dealer: MatchedWorlds, worlds: int) -> list[int]:
    import numpy as np

    found = []
    for world_seed in range(worlds):
        hands = sample(observation, world_seed, weights=dealer).table.hands
        for other in others:
            row = np.frombuffer(bytes(hands[other]), dtype=np.uint8)[None, :]
            if levels(observation, other, row)[0] == 0:
                found.append(int(wait_classes(observation, other, row, unseen_counts(observation))[0]))
    return found


def test_waiting_worlds_keep_ready_hands_by_the_weight_of_their_waits() -> None:
    """With every seat dealt ready, a table that weighs only one class of waits (7-8 unseen copies, no discarded
    wait) makes ready hands of that class much more often than matched worlds do; the calibrated table keeps ready
    hands off kinds their seat discarded more than matched worlds do."""
    game = _late("guangdong")
    observation = game.observation(game.seats_to_act[0])
    others = _free(observation, "guangdong")
    ready = [0.0] * LEVELS
    ready[0] = 1.0
    shares = _shares("guangdong", ready)
    matched = _ready_classes(observation, others, MatchedWorlds(16, shares), 40)
    weights = [0.0] * WAIT_CLASSES
    weights[6] = 1.0
    waiting = _ready_classes(observation, others, WaitingWorlds(16, shares, {"guangdong": {"weights": weights}}), 40)
    assert len(matched) > 100 and len(waiting) > 100
    assert waiting.count(6) / len(waiting) > 2 * matched.count(6) / len(matched)
    calibrated = _ready_classes(observation, others, WaitingWorlds(16, shares), 40)
    assert sum(c % 2 for c in calibrated) / len(calibrated) < 0.3 * sum(c % 2 for c in matched) / len(matched)


def test_without_a_table_waiting_worlds_are_matched_worlds() -> None:
    game = _late("kawuxing", steps=20)
    observation = game.observation(game.seats_to_act[0])
    for world_seed in range(4):
        assert (sample(observation, world_seed, weights=WaitingWorlds(8, waits={})).table.to_json()
                == sample(observation, world_seed, weights=MatchedWorlds(8)).table.to_json())


@pytest.mark.parametrize("waits", [
    [],
    {"guangdong": {}},
    {"guangdong": {"weights": [1.0]}},
    {"guangdong": {"weights": [0.0] * WAIT_CLASSES}},
    {"guangdong": {"weights": [float("nan")] * WAIT_CLASSES}},
])
def test_malformed_wait_tables_are_refused(waits: Any) -> None:
    with pytest.raises(HupaiError, match="world wait weights"):
        WaitingWorlds(4, waits=waits)
    with pytest.raises(HupaiError, match="draws"):
        WaitingWorlds(4, draws=0)
