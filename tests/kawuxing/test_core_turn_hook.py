"""Kawuxing's lean turn with its turn hook answered by the core (``_core.lean_turn``'s ``hook``, from
Rules.plain_turn_mask as ``MahjongFlow._lean_chain`` keeps it): the same games as the flow's Python hook
(turn_is_plain asked at every lean turn), without that question at a turn the core found plain; a malformed hook is
refused before anything is written."""

from __future__ import annotations

from typing import Any

import pytest
from hupai._core import lean_turn
from hupai.bots import RandomBot
from hupai.game import Game


def _played(seed: int, hooked: bool) -> tuple[str, int]:
    """A Kawuxing hand of RandomBots applied action by action (no run of the core's), and how often the rules were
    asked turn_is_plain; ``hooked`` False: the flow's own Python question at every lean turn."""
    asked = [0]
    game = Game("kawuxing", seed=seed, claim_window="eligible")
    flow = game._flow
    if not hooked:
        flow.chains = False  # (what turns the core's answer on: the rules' promise is kept only where they chain)
    quick = flow._quick_turn

    def counted(table: Any, seat: int) -> bool:
        asked[0] += 1
        return bool(quick(table, seat))
    flow._quick_turn = counted
    bots = [RandomBot(seed * 3 + i) for i in range(3)]
    while not game.over:
        seat = game.seats_to_act[0]
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    return game.to_json(), asked[0]


def test_kawuxing_lean_turns_are_judged_by_the_core() -> None:
    hooked_asks = python_asks = 0
    for seed in range(30):
        log, asked = _played(seed, True)
        python_log, python_asked = _played(seed, False)
        assert log == python_log
        hooked_asks += asked
        python_asks += python_asked
    # The hook is asked only where the core found a turn that is not plain (Game.legal_actions asks the flow).
    assert python_asks > 0 and hooked_asks * 3 < python_asks


def _call(seed: int = 3) -> tuple[Game, list[Any]]:
    game = Game("kawuxing", seed=seed, claim_window="eligible")
    flow = game._flow
    table = game.table
    seat = table.turn_seat
    tile = next(k for k in range(34) if table.hands[seat][k])
    wall = table.wall
    facts = flow._facts()
    return game, [flow._turn_pack, table.ready_bytes, seat, tile, table.drawn, wall.head, wall.tail - flow._dead_wall,
                  facts[1][seat], (facts[0], wall.tail)]


def _bytes(game: Game) -> list[bytes]:
    table = game.table
    return [bytes(b) for b in (*table.hands, table.draws, table.discards_made, table.ready_bytes, *table.piles)]


@pytest.mark.parametrize("hook", [(0,), (8, 10), (0, -1), (0, 10**6), [0, 10], (True, 10), (0, 10, 1), 0])
def test_a_malformed_hook_is_refused_and_writes_nothing(hook: Any) -> None:
    game, args = _call()
    args[-1] = hook
    before = _bytes(game)
    with pytest.raises((TypeError, ValueError)):
        lean_turn(*args)
    assert _bytes(game) == before


def test_the_hooks_seats_and_tail_make_the_next_turn_not_plain() -> None:
    """The next turn's discards come back only when its seat's bit is not given and a tile is left after its
    draw; None (the flow asks the rules) otherwise. Without a hook (None, or no ninth argument), the core's own test
    alone."""
    found = 0
    for seed in range(40):
        results = []
        next_seat = None
        for variant in ("plain", "seat", "tail", "none", "eight"):
            game, args = _call(seed)
            next_seat = (args[2] + 1) % 3
            if variant == "seat":
                args[-1] = (1 << next_seat, args[-1][1])
            elif variant == "tail":
                args[-1] = (0, args[5] + 1)  # the draw takes the wall's last tile
            elif variant == "none":
                args[-1] = None
            elif variant == "eight":
                args = args[:8]
            results.append(lean_turn(*args))
        plain, seat, tail, none, eight = results
        if plain[1] < 0:
            continue  # a claim window: no draw
        assert none == eight and tail[1] == seat[1] == plain[1]
        assert seat[0] is None and tail[0] is None
        if plain[0] is not None:
            found += 1
            assert none[0] == plain[0]
    assert found > 10
