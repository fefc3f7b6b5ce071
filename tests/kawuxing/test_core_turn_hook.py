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
    assert python_asks > 0 and hooked_asks * 5 < python_asks


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


def _reference_extras(rules: Any, table: Any, seat: int) -> list[Any]:
    """KW-16's 亮倒 discards as turn_extras found them before asking the core which discards leave a ready hand:
    every held kind's waits."""
    from hupai.actions import Action
    from hupai.analysis import shanten
    from hupai.rules.kawuxing.rules import LIANGDAO, hand_waits
    if table.extras["liangdao"][seat]:
        return []
    hand = table.hands[seat]
    melds = len(table.melds[seat])
    if shanten(table.views[seat], melds=melds, forms=rules._forms) > 0:
        return []
    forbidden = rules.forbidden_discards(table, seat)
    shown = [0] * 34
    for meld in table.melds[seat]:
        shown[meld.tiles[0]] += len(meld.tiles)
    out = []
    counts = bytearray(hand)
    for kind in range(34):
        if not hand[kind] or kind in forbidden:
            continue
        counts[kind] -= 1
        if any(counts[wait] + shown[wait] < 4 for wait in hand_waits(counts, melds, rules._forms)):
            out.append(Action("discard", seat, kind, (), LIANGDAO))
        counts[kind] += 1
    return out


def test_liangdao_discards_are_the_ones_every_held_kinds_waits_give(monkeypatch: pytest.MonkeyPatch) -> None:
    """turn_extras asks the waits only of the discards that leave a ready hand, and offers what asking every held
    kind's waits offered, at every turn of many hands (a 亮倒 among them)."""
    from hupai.rules.kawuxing import rules as kawuxing_rules
    asked = [0]
    waits = kawuxing_rules.hand_waits

    def counted(*args: Any) -> Any:
        asked[0] += 1
        return waits(*args)
    turns = offered = held = 0
    for seed in range(40):
        game = Game("kawuxing", seed=seed, claim_window="eligible")
        rules = game._flow.rules
        bots = [RandomBot(seed * 7 + i) for i in range(3)]
        while not game.over:
            seat = game.seats_to_act[0]
            table = game.table
            if table.phase == "turn":
                expected = _reference_extras(rules, table, seat)
                monkeypatch.setattr(kawuxing_rules, "hand_waits", counted)
                asked[0] = 0
                got = rules.turn_extras(table, seat)
                monkeypatch.setattr(kawuxing_rules, "hand_waits", waits)
                assert got == expected
                turns += 1
                offered += bool(got)
                held += sum(1 for kind in range(34) if table.hands[seat][kind]) if expected else 0
                assert asked[0] <= len(got) + sum(1 for kind in range(34) if table.hands[seat][kind]) // 2
            game.apply(bots[seat].choose(game.legal_actions(seat)))
    assert turns > 500 and offered > 20


def test_a_readings_groups_are_formatted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A win's reading names its groups in notation: each distinct group is formatted once, then read from the
    kept texts (the same text)."""
    from hupai.rules.kawuxing import scoring
    from hupai.rules.kawuxing.rules import KawuxingRules
    from hupai.scoring import WinContext
    from hupai.tiles import parse
    rules = KawuxingRules()
    context = WinContext(concealed=tuple(parse("1122334455667s")), win_tile=parse("7s")[0], winner=0, dealer=0,
                         discarder=1)
    first = rules.score(context).reading
    calls = [0]
    formatted = scoring.format_tiles

    def counted(tiles: Any) -> str:
        calls[0] += 1
        return formatted(tiles)
    monkeypatch.setattr(scoring, "format_tiles", counted)
    assert rules.score(context).reading == first and "*" in first
    assert calls[0] == 0
