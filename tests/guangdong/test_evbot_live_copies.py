"""EVBot in Guangdong: improving tiles counted on the copies its seat has not seen anywhere."""

from __future__ import annotations

import dataclasses

from hupai.actions import Action
from hupai.bots import GreedyBot
from hupai.ev import EVBot, _live_scores
from hupai.game import Game
from hupai.game.scripted import stacked_game
from hupai.observation import Observation
from hupai.rules import advice

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


def test_live_scores_are_the_core_scores_less_the_copies_shown() -> None:
    """Every discard's live score: the core's (-256 x shanten + copies) less the shown copies of its improving
    kinds, along real hands; the shanten is the core's."""
    guangdong = advice("guangdong")
    checked = 0
    for seed in range(3):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        bots = [GreedyBot(s) for s in range(4)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            discards = [a for a in observation.legal_actions if a.kind == "discard" and not a.flag]
            if observation.phase == "turn" and discards:
                shown = [0] * 34
                for pile in observation.discards:
                    for tile in pile:
                        shown[tile] += 1
                for melds in observation.melds:
                    for meld in melds:
                        for tile in meld.tiles:
                            shown[tile] += 1
                core = guangdong.rank_discards(observation, discards)
                live = _live_scores(observation, guangdong, discards)
                for action, plain, counted in zip(discards, core, live, strict=True):
                    after = bytearray(observation.counts)
                    after[action.tile] -= 1
                    improving = [k for k in range(34) if after[k] < 4 and _lowers(guangdong, observation, after, k)]
                    assert counted // 256 == plain // 256
                    assert plain - counted == sum(shown[k] for k in improving)
                    checked += 1
            game.apply(bots[seat].act(observation))
    assert checked > 50


def _lowers(guangdong: object, observation: object, after: bytearray, kind: int) -> bool:
    import numpy as np
    melds = len(observation.melds[observation.seat])  # type: ignore[attr-defined]
    drawn = bytearray(after)
    drawn[kind] += 1
    rows = np.frombuffer(bytes(after + drawn), dtype=np.uint8).reshape(2, 34)
    before, then = guangdong.shanten(observation, rows, np.array([melds, melds], dtype=np.int32)).tolist()  # type: ignore[attr-defined]
    return bool(then < before)
