"""Yunxiao through the table engine: the deal and gold flip (YX-1, YX-5, YX-6, YX-9), the wall end (YX-12,
YX-E22), drawn hands (YX-44), dealer rotation (YX-45, YX-46), and the generic engine guarantees (random games
to the end, illegal actions, determinism)."""

from __future__ import annotations

import json
from collections import Counter

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Action, Game, Match, play
from hupai.rules.yunxiao import YunxiaoRules

from .flow_helpers import T, discard_drawn, flags, yx_game


def test_yx_1_yx_5_yx_6_gold_flip_leaves_82_live_tiles():
    """YX-1 136 tiles; YX-5 14 to the dealer, 13 to the others; YX-6 the indicator is the wall's last tile,
    its kind is G, it leaves play: 136 - 53 - 1 = 82 live tiles."""
    rules = hupai.rules.get("yunxiao")
    assert Counter(rules.tiles()) == Counter({kind: 4 for kind in range(34)})
    for seed in range(8):
        game = Game("yunxiao", seed=seed, dealer=seed % 4)
        table = game.table
        assert [sum(h) for h in table.hands] == [14 if s == seed % 4 else 13 for s in range(4)]
        assert table.wall.live == 82
        assert table.extras["gold"] == table.extras["indicator"] == table.wall.tiles[-1]
        assert table.wall.tail == len(table.wall.tiles) - 1  # never drawn, not even as a replacement
        assert game.observation((seed + 1) % 4).extras["gold"] == table.extras["gold"]  # public


def test_yx_9_dealer_starts_without_drawing():
    """YX-9: the dealer discards first, without a draw; its 下家 then draws."""
    game = yx_game(["", "", "", ""], "9s")
    assert game.current.phase == "turn" and game.current.seats == (0,)
    assert not any(e.type == "draw" for e in game.events)
    discard_drawn(game)
    assert game.current.seats == (1,)
    assert [e.seat for e in game.events if e.type == "draw"] == [1]


def test_yx_12_e22_wall_end_without_kong_after_48_draws():
    """YX-12 / YX-E22: with no kong, exactly 82 - 34 = 48 normal draws, then the hand is drawn (YX-44, no
    payments) and the dealer repeats (YX-45)."""
    game = yx_game(["1z2z3z4z5z6z7z1m9m1p9p1s9s", "", "", ""], "5m", dealer=0)
    discard_drawn(game, 1)
    while not game.over:
        discard_drawn(game)
    draws = [e for e in game.events if e.type == "draw"]
    assert len(draws) == 48 and game.table.wall.live == 34
    result = game.result
    assert result.drawn and result.payments == (0, 0, 0, 0) and result.next_dealer == 0


def test_yx_12_e22_reserve_grows_with_a_kong_and_the_deal_passes():
    """YX-12 / YX-E22: after one kong the hand ends when a normal draw is due at 38 or fewer; YX-13 the
    replacement comes from the tail; YX-45 a drawn hand with a kong passes the deal to the dealer's 下家."""
    game = yx_game(["1111z2z3z4z5z6z7z1m9m1p", "", "", ""], "5m", replacements="9s")
    tail_tile = game.table.wall.tiles[game.table.wall.tail - 1]
    game.apply(Action("kong", 0, T("1z"), (), "concealed"))
    assert game.table.drawn == tail_tile == T("9s") and game.table.drawn_from == "replacement"
    assert game.table.extras["kongs"] == 1 and game.table.wall.live == 81
    while not game.over:
        discard_drawn(game)
    assert game.table.wall.live == 38
    assert sum(1 for e in game.events if e.type == "draw" and e.info == "wall") == 81 - 38
    assert game.result.drawn and game.result.next_dealer == 1


def test_yx_12_wall_end_is_checked_before_you_jin():
    """YX-12 / YX-27: a player at a 游 level whose turn comes with the wall at the reserve cannot declare: the
    hand is drawn first. (Reserve 79 here: the dealer's second turn finds 79 live tiles.)"""
    game = yx_game(["123m456m789p111z5p9s", "", "", ""], "5p", options={"wall_end_reserve": [79, 80, 80]})
    game.apply(Action("discard", 0, T("9s")))
    assert game.table.extras["you"][0] == 1
    discard_drawn(game, 3)
    assert game.over and game.result.drawn and game.table.wall.live == 79


def test_yx_45_winner_deals_next():
    """YX-45: a winning non-dealer deals the next hand (YX-E10 天胡 keeps the deal with the dealer)."""
    game = yx_game(["123m456m789p111z55s", "", "", ""], "9s")
    game.apply(Action("win", 0, T("5s")))
    assert game.result.next_dealer == 0
    rules = YunxiaoRules()
    assert rules.next_round(0, 0, 1, 0) == (0, False)  # YX-46: no winds, no end of session


@pytest.mark.parametrize("seed", range(300))
def test_yx_random_games_run_to_the_end(seed):
    """Random legal play always ends, payments sum to zero (YX-42), and the log replays byte for byte."""
    rules = YunxiaoRules()
    game = Game(rules, seed=seed, dealer=seed % 4)
    result = play(game, [RandomBot(seed * 4 + i) for i in range(4)])
    assert sum(result.payments) == 0
    if seed % 25 == 0:
        assert Game.replay(game.to_json(), rules=rules).to_json() == game.to_json()


def test_yx_greedy_games_and_match():
    """GreedyBot tables finish with wins; a Match rotates the deal by YX-45."""
    match = Match(YunxiaoRules(), seed=3)
    results = match.play([GreedyBot(i) for i in range(4)], hands=12)
    assert len(results) == 12 and sum(match.scores) == 0
    assert sum(1 for r in results if r.winners) >= 8
    for before in results:
        if before.winners:
            assert before.next_dealer == before.winners[0]


def test_yx_same_seed_same_log():
    """Determinism: the same seed and the same bot seeds give the same JSON log."""
    logs = []
    for _ in range(2):
        game = Game("yunxiao", seed=77, dealer=1)
        play(game, [RandomBot(i) for i in range(4)])
        logs.append(game.to_json())
    assert logs[0] == logs[1]
    assert json.loads(logs[0])["rules"] == "yunxiao"
    assert Game.replay(logs[0]).to_json() == logs[0]


def test_yx_illegal_action_changes_nothing():
    """An illegal action raises IllegalAction and leaves the game as it was (a gold claim, a wrong seat,
    a declaration not on offer)."""
    game = yx_game(["5m1z2z3z4z5z6z7z1m9m1p9p1s", "5m5m", "", ""], "5m")
    before = json.dumps(game.snapshot())
    for action in (Action("discard", 1, T("1z")), Action("declare", 0, T("5m"), (), "you_jin"),
                   Action("kong", 0, T("5m"), (), "concealed"), {"kind": "discard", "seat": 0, "tile": 40}):
        with pytest.raises(hupai.IllegalAction):
            game.apply(action)
        assert json.dumps(game.snapshot()) == before
    game.apply(Action("discard", 0, T("5m")))  # a gold is always discardable (YX-11) ...
    assert game.current.phase != "claim"        # ... and P1's two golds cannot pung it
    with pytest.raises(hupai.IllegalAction):
        game.apply(Action("pung", 1, T("5m")))
    assert not flags(game.legal_actions(game.current.seats[0])) - {"qiang_jin"}


def test_yx_options_are_checked_and_logged():
    """Spec §12: unknown options or values raise HupaiError; the full option set is in the log."""
    with pytest.raises(hupai.HupaiError):
        hupai.rules.get("yunxiao", bogus=1)
    with pytest.raises(hupai.HupaiError):
        YunxiaoRules({"louhu": "never"})
    game = Game("yunxiao", options={"max_kongs": 2})
    assert json.loads(game.to_json())["options"]["max_kongs"] == 2
    assert json.loads(game.to_json())["options"]["wall_end_reserve"] == [34, 38, 40]
