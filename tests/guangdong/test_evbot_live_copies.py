"""EVBot in Guangdong: improving tiles counted on the copies its seat has not seen anywhere, and short of ready
the copies a claim could take counted more."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from hupai.actions import Action
from hupai.bots import GreedyBot
from hupai.ev import EVBot, _live_scores
from hupai.game import Game
from hupai.game.scripted import stacked_game
from hupai.observation import Observation
from hupai.rules import advice
from hupai.rules.base_advice import Advice

NINE_M, EAST = 8, 27


def _ready_choice(piles: tuple[tuple[int, ...], ...]) -> tuple[Observation, list[Action]]:
    """The dealer holds four melds and 东, and draws 9m (the filler's first tile): either discard leaves a single
    wait on the other. ``piles`` replaces what the table shows face up."""
    game = stacked_game(["234m456s789s567p1z", "123456m2345678p"], dealer=0)
    observation = dataclasses.replace(game.observation(0), discards=piles)
    assert observation.hand == (1, 2, 3, NINE_M, 13, 14, 15, 21, 22, 23, 24, 25, 26, EAST)
    discards = [a for a in observation.legal_actions if a.kind == "discard" and not a.flag]
    return observation, discards


def test_evbot_waits_on_the_copies_still_live() -> None:
    """Two 9m lie in the discard piles: a single wait on 9m has one copy left, one on 东 three. The core counts four
    less the hand's own for both (GreedyBot's tie); EVBot counts what it has seen, keeps 东 and lets 9m go."""
    observation, discards = _ready_choice(((), (NINE_M,), (NINE_M,), ()))
    guangdong = advice("guangdong")
    by_kind = dict(zip((a.tile for a in discards), guangdong.rank_discards(observation, discards), strict=True))
    assert by_kind[NINE_M] == by_kind[EAST] == 3  # ready (shanten 0), three copies each to the core
    live = dict(zip((a.tile for a in discards), _live_scores(observation, guangdong, discards), strict=True))
    assert live[NINE_M] == 3 and live[EAST] == 1  # discard 9m: wait on 东 (3 live); discard 东: wait on 9m (1 live)
    for seed in range(8):
        assert EVBot(seed).act(observation).tile == NINE_M
    # The table shows the 东s instead: the wait on 9m is the live one.
    shown_east, _ = _ready_choice(((), (EAST,), (EAST,), ()))
    for seed in range(8):
        assert EVBot(seed).act(shown_east).tile == EAST


def _reference(observation: Observation, discards: list[Action]) -> list[float]:
    """The live scores counted kind by kind: per discard, its shanten and each improving kind's copies out of sight
    (four less the hand's own and those face up); short of ready, at the best shanten, a copy a pung could take (a
    pair held after the discard) or a chow (two held tiles make a run with it) counts 1 + 1.8 or 1 + 0.6 times,
    all scaled by 1 / 3.4, where more than one discard is at that shanten."""
    guangdong = advice("guangdong")
    pung, chow = guangdong.claim_access
    seen = list(observation.counts)
    for pile in observation.discards:
        for tile in pile:
            seen[tile] += 1
    for melds in observation.melds:
        for meld in melds:
            for tile in meld.tiles:
                seen[tile] += 1
    melds = len(observation.melds[observation.seat])
    by_kind: dict[int, tuple[int, list[int]]] = {}
    for action in discards:
        after = bytearray(observation.counts)
        after[action.tile] -= 1
        shanten = _shanten(guangdong, observation, after)
        improving = [k for k in range(34)
                     if after[k] < 4 and _shanten(guangdong, observation, _plus(after, k)) < shanten]
        by_kind[action.tile] = (shanten, improving)
    best = min(shanten for shanten, _ in by_kind.values())
    several = sum(shanten == best for shanten, _ in by_kind.values()) > 1  # one best discard: no weighing
    scores = []
    for action in discards:
        shanten, improving = by_kind[action.tile]
        after = bytearray(observation.counts)
        after[action.tile] -= 1
        total = 0.0
        for k in improving:
            weight = 1.0
            if shanten == best and best > 0 and several:
                if after[k] >= 2:
                    weight += pung
                low = k - k % 9
                if k < 27 and any(a >= low and b < low + 9 and after[a] and after[b]
                                  for a, b in ((k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2))):
                    weight += chow
                weight /= 1.0 + pung + chow
            total += (4 - seen[k]) * weight
        scores.append(-256 * shanten + (total if shanten == best else 0))  # a worse discard: its shanten alone
    return scores


def _plus(counts: bytearray, kind: int) -> bytearray:
    drawn = bytearray(counts)
    drawn[kind] += 1
    return drawn


def _shanten(guangdong: Advice, observation: Observation, counts: bytearray) -> int:
    rows = np.frombuffer(bytes(counts), dtype=np.uint8).reshape(1, 34)
    melds = len(observation.melds[observation.seat])
    return int(guangdong.shanten(observation, rows, np.array([melds], dtype=np.int32))[0])


def test_live_scores_count_what_is_out_of_sight_and_what_a_claim_could_take() -> None:
    """GD-9 (a pung on any discard, a chow on the seat before's): the live scores along real hands match a count
    made kind by kind, counted afresh or from the last turn's count, and the core's shanten is kept."""
    guangdong = advice("guangdong")
    checked = weighted = 0
    for seed in range(3):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        bots = [GreedyBot(s) for s in range(4)]
        caches: list[list[Any]] = [[] for _ in range(4)]  # each seat's face-up count, kept from turn to turn
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            discards = [a for a in observation.legal_actions if a.kind == "discard" and not a.flag]
            if observation.phase == "turn" and discards:
                core = guangdong.rank_discards(observation, discards)
                live = _live_scores(observation, guangdong, discards)
                assert _live_scores(observation, guangdong, discards, caches[seat]) == live
                assert [s // 256 for s in live] == [s // 256 for s in core]
                assert live == pytest.approx(_reference(observation, discards))
                checked += 1
                weighted += any(score % 1 for score in live)
            game.apply(bots[seat].act(observation))
    assert checked > 50 and weighted > 10
