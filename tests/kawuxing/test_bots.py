"""Seeded bot games under Kawuxing with invariants checked at every decision: 84 tiles (KW-1), payments summing to
zero, 亮倒 hands frozen and shown (KW-16, KW-17), rule hooks never changing the table, observations hiding the
other seats' concealed tiles, and replay identical."""

from __future__ import annotations

import hupai
import pytest

# The engine's contract test wraps every hook so that one changing the table fails (tests/game is on the path as
# a namespace package: tests/conftest.py puts tests/ first).
from game.test_contract import _guard
from hupai.actions import Action
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, Match
from hupai.rules.kawuxing.rules import LIANGDAO
from hupai.tiles import counts_to_kinds, kind_name

TILES = 84


#: GreedyBot declares 亮倒 through Kawuxing's advice (``rules/kawuxing/advice.py``) when its wait is live.
AdvisedGreedy = GreedyBot


def _tiles_on_table(game: Game) -> int:
    table = game.table
    return (sum(sum(hand) for hand in table.hands) + sum(len(m.tiles) for ms in table.melds for m in ms)
            + sum(len(pile) for pile in table.discards) + table.wall.live)


def _check_decision(game: Game) -> None:
    table = game.table
    assert _tiles_on_table(game) == TILES
    assert sum(table.payments) == 0
    liangdao = table.extras["liangdao"]
    for seat in range(3):
        if not liangdao[seat]:
            assert table.extras["revealed"][seat] == []
            continue
        drawn = table.drawn if table.turn_seat == seat and table.phase == "turn" else -1
        assert table.extras["revealed"][seat] == sorted(table.concealed_kinds(seat, drawn))  # KW-16
        legal = game.legal_actions(seat)
        assert not any(a.kind == "pung" for a in legal)  # KW-17: no 碰
        if drawn >= 0:
            assert {a.tile for a in legal if a.kind == "discard"} <= {drawn}  # KW-17: 摸切
    for seat in range(3):
        observation = game.observation(seat).to_dict()
        assert observation["hand"] == [kind_name(k) for k in counts_to_kinds(table.hands[seat])]
        assert observation["hand_sizes"] == [sum(h) for h in table.hands]
        assert not any(key.startswith("hand") and key not in ("hand", "hand_sizes") for key in observation)


def _play_checked(game: Game, bots) -> None:
    while not game.over:
        _check_decision(game)
        seat = game.current.seats[0]
        game.apply(bots[seat].act(game.observation(seat)))


@pytest.mark.rule("KW-1", "KW-16", "KW-17", "KW-25")
@pytest.mark.parametrize("bot_class", [RandomBot, AdvisedGreedy], ids=["random", "greedy"])
@pytest.mark.parametrize("window", ["all", "eligible"])
def test_seeded_bot_games_keep_the_invariants(bot_class, window):
    rules = hupai.rules.get("kawuxing")
    bots = [bot_class(seat + 10) for seat in range(3)]
    declared = wins = 0
    for seed in range(40):
        game = Game(rules, seed=seed, dealer=seed % 3, claim_window=window)
        _play_checked(game, bots)
        result = game.result
        assert sum(result.payments) == 0
        kong_money = list(game.table.payments)
        for win in result.wins:
            assert sum(win.score.payments) == 0
            kong_money = [a + b for a, b in zip(kong_money, win.score.payments, strict=True)]
        assert tuple(kong_money) == result.payments
        if result.drawn:
            assert result.next_dealer == game.table.dealer  # KW-28
        declared += sum(game.table.extras["liangdao"])
        wins += len(result.wins)
        assert Game.replay(game.to_json()).to_json() == game.to_json()
    assert declared > 0 and wins > 0  # the checks above met 亮倒 hands and wins


@pytest.mark.rule("KW-4", "KW-28")
def test_matches_of_hundreds_of_hands():
    """Matches of greedy and random bots: 84 tiles, zero-sum results, the dealer as KW-28 says."""
    for bot_class in (AdvisedGreedy, RandomBot):
        match = Match("kawuxing", seed=5, claim_window="eligible")
        players = [bot_class(seat) for seat in range(3)]
        dealers = []
        for _ in range(150):
            game = match.new_game()
            dealers.append(game.table.dealer)
            while not game.over:
                seat = game.current.seats[0]
                game.apply(players[seat].act(game.observation(seat)))
            robbed = any(w.source == "robbed_kong" for w in game.result.wins)  # the robbed tile left the hand
            assert _tiles_on_table(game) + robbed == TILES
            result = match.record(game)
            assert sum(result.payments) == 0
            if len(result.winners) == 1:
                assert result.next_dealer == result.winners[0]
        assert sum(match.scores) == 0
        assert set(dealers) == {0, 1, 2}


@pytest.mark.parametrize("window", ["all", "eligible"])
def test_rule_hooks_never_change_the_table(window):
    """Rules read, the engine writes (hupai.rules.contract): the contract test's guard over Kawuxing games."""
    seen: list[str] = []
    for seed in range(5):
        rules = _guard(hupai.rules.get("kawuxing"), seen)
        bots = [AdvisedGreedy(seed) if seat % 2 else RandomBot(seed) for seat in range(3)]
        game = Game(rules, seed=seed, dealer=seed % 3, claim_window=window)
        _play_checked(game, bots)
    assert {"on_deal", "claim_options", "kong_options", "turn_extras", "forbidden_discards", "win_context",
            "next_dealer"} <= set(seen)


@pytest.mark.rule("KW-27", "KW-15")
def test_kw_27_a_drawn_hand_pays_by_the_liangdao_players_through_the_engine():
    """荒庄: the engine applies the rules' drawn-hand payments (by the number of 亮倒 players) on top of the kong
    money already paid, logged as a payment event."""
    rules = hupai.rules.get("kawuxing")
    checked = 0
    for seed in range(120):
        game = Game(rules, seed=seed, dealer=seed % 3, claim_window="eligible")
        bots = [RandomBot(seed * 3 + i) for i in range(3)]
        while not game.over:
            seat = game.current.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
        if not game.result.drawn or not any(game.table.extras["liangdao"]):
            continue
        expected = rules.drawn_settlement(game.table)
        kong_money = [sum(e.tiles[i] for e in game.events if e.type == "payment" and e.info == "kong")
                      for i in range(3)]
        assert [e.tiles for e in game.events if e.info == "huangzhuang"] == [expected]
        assert list(game.result.payments) == [a + b for a, b in zip(kong_money, expected, strict=True)]
        checked += 1
    assert checked > 0


@pytest.mark.rule("KW-16")
def test_greedy_bot_declares_liangdao_through_its_advice():
    """GreedyBot, seeing only its observation, declares 亮倒 with its chosen discard when the advice says the wait
    is live, and never picks between the plain and the flagged discard at random."""
    declared = 0
    for seed in range(30):
        game = Game("kawuxing", seed=seed, claim_window="eligible")
        bots = [GreedyBot(seed * 3 + i) for i in range(3)]
        while not game.over:
            seat = game.current.seats[0]
            observation = game.observation(seat)
            action = bots[seat].act(observation)
            if action.kind == "discard" and action.flag:
                declared += 1
            elif action.kind == "discard":
                flagged = Action("discard", seat, action.tile, (), LIANGDAO)
                if flagged in observation.legal_actions:
                    assert hupai.rules.advice("kawuxing").declare(observation, action) == action  # a dead wait
            game.apply(action)
    assert declared > 0


@pytest.mark.rule("KW-1", "KW-16", "KW-27")
def test_many_seeded_hands_keep_84_tiles_and_zero_sum_payments():
    """Many seeded hands (RandomBot and GreedyBot tables, both claim windows): 84 tiles on the table at the end,
    payments summing to zero, and every tenth log replaying byte for byte. ``HUPAI_SLOW=1`` plays 3,000."""
    import os

    rules = hupai.rules.get("kawuxing")
    count = 3000 if os.environ.get("HUPAI_SLOW") else 600
    drawn = declared = 0
    for seed in range(count):
        bot = GreedyBot if seed % 2 else RandomBot
        game = Game(rules, seed=seed, dealer=seed % 3, claim_window="all" if seed % 3 == 0 else "eligible")
        hupai.game.play(game, [bot(seed * 3 + i) for i in range(3)])
        robbed = any(w.source == "robbed_kong" for w in game.result.wins)
        assert _tiles_on_table(game) + robbed == TILES
        assert sum(game.result.payments) == 0
        if seed % 10 == 0:
            assert Game.replay(game.to_json()).to_json() == game.to_json()
        drawn += game.result.drawn
        declared += sum(game.table.extras["liangdao"])
    assert drawn and declared
