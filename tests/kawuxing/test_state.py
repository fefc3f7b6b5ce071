"""Saved Kawuxing games: snapshots restore and play on identically, and a forged Kawuxing state (亮倒 flags,
shown hands, the kong chain: KW-13, KW-16) is refused naming the entry."""

from __future__ import annotations

import copy
import re

import pytest
from hupai.bots import RandomBot
from hupai.errors import InvalidState
from hupai.game import Game

from tests.hidden import set_wall_tiles

from .test_bots import AdvisedGreedy


def _games_with_liangdao(count: int):
    """Finished games of advised greedy bots in which someone declared 亮倒 and some kong was made."""
    found = []
    for seed in range(200):
        game = Game("kawuxing", seed=seed, dealer=seed % 3)
        bots = [AdvisedGreedy(seed * 3 + s) for s in range(3)]
        while not game.over:
            seat = game.current.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
        if any(game.table.extras["liangdao"]):
            found.append(game)
        if len(found) == count:
            break
    return found


@pytest.mark.rule("KW-16")
def test_snapshots_restore_at_every_decision_and_play_on_identically():
    for seed in range(6):
        game = Game("kawuxing", seed=seed, dealer=seed % 3)  # claim_window="all"
        bots = [RandomBot(seed * 3 + s) if seed % 2 else AdvisedGreedy(seed * 3 + s) for s in range(3)]
        while not game.over:
            twin = Game.from_snapshot(game.snapshot())
            assert twin.to_json() == game.to_json()
            seat = game.current.seats[0]
            assert twin.legal_actions(seat) == game.legal_actions(seat)
            action = bots[seat].act(game.observation(seat))
            game.apply(action)
            twin.apply(action)
            assert twin.snapshot() == game.snapshot()


@pytest.mark.rule("KW-13", "KW-16")
def test_a_forged_kawuxing_state_is_refused():
    (game,) = _games_with_liangdao(1)
    # A mid-hand state: replay up to the first 亮倒 and one action more.
    first = next(i for i, a in enumerate(game.actions) if a.flag == "liangdao")
    mid = Game.replay(game.to_json(), upto=first + 1)
    snap = mid.snapshot()
    Game.from_snapshot(snap)  # the true state loads
    declarer = game.actions[first].seat
    forgeries = {
        "liangdao": lambda e: e["liangdao"].__setitem__((declarer + 1) % 3, True),
        "revealed": lambda e: e["revealed"][declarer].pop(),
        "chain": lambda e: e.__setitem__("chain", [0, 5, 0]),
        "extras": lambda e: e.__setitem__("gold", 3),
    }
    for entry, forge in forgeries.items():
        forged = copy.deepcopy(snap)
        forge(forged["table"]["extras"])
        with pytest.raises(InvalidState, match=re.escape(f"table.extras.{entry}" if entry != "extras" else
                                                         "table.extras: must hold exactly")):
            Game.from_snapshot(forged)


@pytest.mark.rule("KW-16")
def test_observations_show_liangdao_hands_and_hide_the_others():
    """Another seat's concealed tiles (swapped with unseen wall tiles) never change an observation unless that
    seat has declared 亮倒, whose tiles every observation shows (KW-16)."""
    for seed in range(4):
        game = Game("kawuxing", seed=seed, dealer=seed % 3)
        bots = [AdvisedGreedy(seed * 3 + s) for s in range(3)]
        step = 0
        while not game.over:
            if step % 4 == 0:
                _assert_blind(game)
            seat = game.current.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
            step += 1


def _assert_blind(game: Game) -> None:
    for seat in range(3):
        other = (seat + 1) % 3
        shown = game.observation(seat).to_dict()["extras"]["revealed"][other]
        if game.table.extras["liangdao"][other]:
            drawn = game.table.drawn if game.table.turn_seat == other and game.table.phase == "turn" else -1
            assert shown == sorted(game.table.concealed_kinds(other, drawn))
            continue
        assert shown == []
        twin = Game.from_snapshot(game.snapshot())
        table = twin.table
        wall, hand = table.wall, table.hands[other]
        tiles = bytearray(wall.tiles)  # the wall's bytes cannot change: changed here, then given back
        keep = table.drawn if other == table.turn_seat else -1
        for i in range(wall.head, min(wall.tail, wall.head + 3)):
            kind = next((k for k in range(34) if hand[k] and k != keep and k != tiles[i]), None)
            if kind is None:
                break
            hand[kind] -= 1
            hand[tiles[i]] += 1
            tiles[i] = kind
        set_wall_tiles(twin, tiles)
        table.forget_ready()
        twin._legal = {}
        assert twin.observation(seat) == game.observation(seat), f"seat {seat} sees seat {other}'s hand"
