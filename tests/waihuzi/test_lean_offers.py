"""The "eligible" window's unclaimed cards run in the core (``_core.zipai_offer_run``, the flow's ``_lean_offer``):
the same games as the flow offering every card one by one (``flow.LEAN_OFFERS`` off), decision by decision (legal
actions, observations, snapshots, logs), over option sets, bots and seeds that reach 黄庄 and the 海底 card; and
the call refuses hostile arguments before it writes a pile."""

from __future__ import annotations

import json
import random
from typing import Any

import hupai
import pytest
from hupai import _core
from hupai.bots import GreedyBot, RandomBot
from hupai.errors import HupaiError, InvalidHand
from hupai.game import Game, Observer
from hupai.game.zipai import flow as flow_module
from hupai.game.zipai.flow import _CHOW_SPEC

OPTION_SETS: list[dict[str, Any]] = [{}, {"min_huxi": 8}, {"dihu": "first_discard"}, {"sishou": "at_claim"},
                                     {"min_huxi": 3, "xingxingxi": "strict", "extra_mingtang": True}]


def _trace(index: int, monkeypatch: pytest.MonkeyPatch, lean: bool, window: str = "eligible",
           options: dict[str, Any] | None = None) -> list[Any]:
    """Everything a caller can see of one game, at every decision."""
    monkeypatch.setattr(flow_module, "LEAN_OFFERS", lean)
    rules = hupai.rules.get("waihuzi", OPTION_SETS[index % len(OPTION_SETS)] if options is None else options)
    game = Game(rules, seed=index, dealer=index % 3, claim_window=window)
    assert game._flow._lean is (lean and window == "eligible" and not rules.house_wins)  # type: ignore[attr-defined]
    bots = [(GreedyBot if index % 2 else RandomBot)(index * 3 + seat) for seat in range(3)]
    observer = Observer(game)
    trace: list[Any] = []
    while not game.over:
        seats = game.seats_to_act
        trace.append((tuple(seats), [game.legal_actions(seat) for seat in range(3)],
                      [observer.seen(game, seat) for seat in range(3)], json.dumps(game.snapshot(), sort_keys=True)))
        seat = seats[0]
        game.apply(bots[seat].act(observer.view(game, seat)))
    table: Any = game.table
    trace.append((game.to_json(), game.result, table.haidi, table.wall.head, bytes(table.pile_sizes),
                  [bytes(pile) for pile in table.piles], json.dumps(game.snapshot(), sort_keys=True)))
    return trace


def test_the_core_run_plays_the_same_games_as_one_offer_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = haidi = 0
    for index in range(60):
        lean = _trace(index, monkeypatch, True)
        assert lean == _trace(index, monkeypatch, False), index
        result = lean[-1][1]
        drawn += result.drawn
        haidi += lean[-1][3] == 80  # the wall's 80 cards all dealt or turned up
    assert drawn > 3 and haidi > 10  # hands reached the stock's end, and some ended there


def test_passes_read_from_the_offer_bits_mark_what_the_listed_options_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """_mark_passes reads what each seat passed up from the offer's bits; _mark_listed (a restored window's path)
    from its listed options: the same bans, so the same games, in both windows and under a house rule's wins."""
    windows = ("eligible", "all")
    for index in range(40):
        window = windows[index % 2]
        options = {"dandiao": "plus5"} if index % 5 == 4 else OPTION_SETS[index % len(OPTION_SETS)]
        with monkeypatch.context() as patched:
            patched.setattr(flow_module.ZipaiFlow, "_mark_passes", flow_module.ZipaiFlow._mark_listed)
            listed = _trace(index, patched, True, window, options)
        assert _trace(index, monkeypatch, True, window, options) == listed, index


def test_the_chow_bans_are_each_runs_bans_together() -> None:
    for card, runs in enumerate(flow_module._RUNS_OF):
        for mask in range(16):
            expected = 0
            for i, (run, *_) in enumerate(runs):
                if mask >> i & 1:
                    expected |= flow_module._RUN_PARTS[card, run][3]
            assert flow_module._CHOW_BANS[card][mask] == expected


def test_house_wins_and_the_all_window_keep_the_one_by_one_path() -> None:
    assert not Game(hupai.rules.get("waihuzi", {"dandiao": "plus5"}), seed=1, claim_window="eligible")._flow._lean
    assert not Game("waihuzi", seed=1, claim_window="all")._flow._lean
    assert Game("waihuzi", seed=1, claim_window="eligible")._flow._lean


HAND = bytes([3, 3, 3, 3, 3, 3, 1] + [0] * 13)
OPTIONS = (5, False, True, False)
LONE = bytes(19) + b"\x01"  # one card, 大拾: no claim or win on the cards below


def _args(**changes: Any) -> list[Any]:
    names = ["hands", "declared", "card", "source", "drawn", "dead", "chi_ban", "menzi_ban", "locked", "chows",
             "options", "tiles", "head", "piles", "pile_sizes", "unclaimed"]
    values = dict(zip(names, [[LONE, LONE, LONE], [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0],
                              _CHOW_SPEC, OPTIONS, bytes([2, 3, 4]), 0, [bytearray(80) for _ in range(3)],
                              bytearray(3), False], strict=True))
    values.update(changes)
    return [values[name] for name in names]


def test_a_run_of_unclaimed_cards_goes_onto_the_piles_until_the_stock_ends() -> None:
    args = _args()
    assert _core.zipai_offer_run(*args) == (-1, -1, 0, 1, 3)  # 1 by seat 0, then 2, 3, 4 turned up by 1, 2, 0
    piles, sizes = args[13], args[14]
    assert bytes(sizes) == bytes([2, 1, 1]) and piles[0][:2] == bytes([1, 4]) and piles[1][:1] == b"\x02"
    # a seat that may 歪 the second turn-up stops the run there (seat 2 holds two 3s and turns one up)
    hand = bytearray(20)
    hand[3] = 2
    hand[10] = hand[12] = 1
    args = _args(hands=[LONE, LONE, hand], pile_sizes=bytearray([5, 0, 0]))
    bits, card, source, drawn, head = _core.zipai_offer_run(*args)
    assert (card, source, drawn, head) == (3, 2, 1, 2) and bits >> 32 & 2
    assert bytes(args[14]) == bytes([6, 1, 0])
    # unclaimed: the offered card (which seat 2 could 碰) was passed: piled without a scan, the run goes on
    args = _args(hands=[LONE, LONE, hand], card=3, tiles=bytes([2, 4]), unclaimed=True)
    assert _core.zipai_offer_run(*args) == (-1, -1, 2, 1, 2)
    assert bytes(args[14]) == bytes([1, 1, 1]) and [pile[0] for pile in args[13]] == [3, 2, 4]
    args = _args(hands=[LONE, LONE, hand], card=3, tiles=bytes([2, 4]))
    assert _core.zipai_offer_run(*args)[1:] == (3, 0, 1, 0) and bytes(args[14]) == bytes(3)


@pytest.mark.parametrize("changes", [
    {"tiles": bytes([2, 30])}, {"tiles": bytearray([2, 3])}, {"head": 4}, {"head": -1},
    {"piles": [bytearray(80)] * 2}, {"piles": [bytearray(80), bytearray(79), bytearray(80)]},
    {"piles": (bytearray(80),) * 3}, {"pile_sizes": bytearray(2)}, {"pile_sizes": bytes(3)},
    {"pile_sizes": bytearray([80, 0, 0])}, {"pile_sizes": bytearray([0, 79, 255])},
    {"hands": [LONE, LONE, bytes(19)]}, {"card": 20}, {"source": 3}, {"dead": 8}, {"chows": _CHOW_SPEC[:-1]},
    {"options": (5, True)}, {"locked": [1 << 20, 0, 0]},
    {"hands": [bytes([4] + [0] * 19), LONE, LONE], "tiles": bytes([0, 0])},
    {"hands": [bytes(20), LONE, LONE]},
])
def test_hostile_arguments_are_refused_before_a_pile_is_written(changes: dict[str, Any]) -> None:
    args = _args(**changes)
    piles = [bytes(pile) for pile in args[13]] if isinstance(args[13], list) else None
    sizes = bytes(args[14])
    with pytest.raises((HupaiError, InvalidHand, TypeError)):
        _core.zipai_offer_run(*args)
    assert bytes(args[14]) == sizes
    if piles is not None:
        assert [bytes(pile) for pile in args[13]] == piles


def test_a_turns_discards_under_locks_are_the_held_cards_not_locked() -> None:
    """WH-26, WH-18: the discards offered are the held cards not locked, in card order, or every held card when
    all are locked (the turn's locked cards are masked off the counts as one int)."""
    rng = random.Random(8)
    game = Game("waihuzi", seed=3, claim_window="eligible")
    flow: Any = game._flow
    table = flow.table
    table.opening = False
    seen_all_locked = 0
    for _ in range(3000):
        seat = rng.randrange(3)
        table.hands[seat][:] = bytes(rng.choice([0, 0, 0, 1, 2, 3]) for _ in range(20))
        table.locked[seat] = rng.getrandbits(20) & rng.getrandbits(20) if rng.random() < 0.9 else (1 << 20) - 1
        table.dead |= 1 << seat  # no declarations: the discards alone
        held = [card for card in range(20) if table.hands[seat][card]]
        free = [card for card in held if not table.locked[seat] >> card & 1]
        seen_all_locked += bool(held) and not free
        assert [a.tile for a in flow._turn_actions(seat)] == (free or held)
        assert all(a.kind == "discard" and a.seat == seat for a in flow._turn_actions(seat))
    assert seen_all_locked > 100


def test_an_asked_seats_answers_are_its_options_and_pass() -> None:
    """_pending builds what _offered builds (the options the core's bits name, in the order the flow offers
    them) and ``pass``, for every seat, card and set of bits."""
    for seat in range(3):
        for card in range(20):
            for bits in range(1, 512):
                assert flow_module._pending(seat, card, bits) == (*flow_module._offered(seat, card, bits),
                                                                  flow_module._PASS[seat])
