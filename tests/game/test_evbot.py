"""EVBot (issue 22 item 4): legal, seeded play in every system; a shown hand's waits avoided; a discard win let pass
for a self-draw only when the model says it is worth more."""

from __future__ import annotations

import hupai
import pytest
from hupai.bots import GreedyBot
from hupai.ev import EVBot, _shape_danger
from hupai.game import Game, play
from hupai.game.scripted import stacked_game
from hupai.rules import advice

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_evbot_plays_legal_seeded_hands(system: str) -> None:
    n = hupai.rules.get(system).num_players
    logs = []
    for _ in range(2):
        game = Game(system, seed=21, claim_window="all")
        play(game, [EVBot(seat) for seat in range(n)])  # apply() refuses anything illegal
        logs.append(game.to_json())
    assert logs[0] == logs[1]


def test_kawuxing_evbot_never_deals_into_a_shown_hand_when_it_can_keep_its_shanten() -> None:
    """KW-16/KW-18: a 亮倒 hand's waits are public and its discarder pays alone; EVBot reads them from the shown
    hand and keeps out of them (GreedyBot does not look)."""
    dealt_in = {"ev": 0, "greedy": 0}
    for seed in range(60):
        for kind, bot in (("ev", EVBot), ("greedy", GreedyBot)):
            game = Game("kawuxing", seed=seed, claim_window="eligible")
            players = [bot(seed * 3 + s) for s in range(3)]
            result = play(game, players)
            for win in result.wins:
                if win.discarder is not None and game.observation(win.discarder).extras["liangdao"][win.seat]:
                    dealt_in[kind] += 1
    assert dealt_in["ev"] < dealt_in["greedy"]


def test_known_waits_are_read_from_the_shown_hand() -> None:
    rules = hupai.rules.get("kawuxing")
    game = Game(rules, seed=5, claim_window="eligible")
    bots = [GreedyBot(s) for s in range(3)]
    kawuxing = advice("kawuxing")
    while not game.over:
        seat = game.seats_to_act[0]
        observation = game.observation(seat)
        known = kawuxing.known_waits(observation)
        for other, shown in enumerate(observation.extras["revealed"]):
            if other != seat and shown:
                counts = [0] * 34
                for kind in shown:
                    counts[kind] += 1
                melds = len(observation.melds[other])
                assert known[other] == frozenset(hupai.waits(bytes(counts), melds=melds, forms=rules.win_forms))
        game.apply(bots[seat].act(observation))


def test_shape_danger_is_zero_only_when_no_shape_is_left() -> None:
    unseen = [4] * 34
    assert _shape_danger(4, unseen) > _shape_danger(0, unseen) > _shape_danger(27, unseen) > 0  # 5m > 1m > 东
    none_left = [0] * 34
    assert _shape_danger(4, none_left) == 0.0
    one = [0] * 34
    one[27] = 1
    assert 0 < _shape_danger(27, one) < _shape_danger(27, unseen)


def test_a_discard_win_passes_only_for_a_wide_wait_with_a_long_wall() -> None:
    """GD-22/GD-23: a self-draw is paid three shares, a discard win one. Seat 1 is ready on 2p/5p/8p and seat 0
    discards 2p at the first turn: with the wall full and nobody looking ready, EVBot lets the win pass for a
    self-draw (自摸 also doubles the share, GD-17); if another seat were sure to end the hand at once (hazard 1) it
    would take it; GreedyBot always takes it."""
    game = stacked_game(["2p1z2z3z4z5z6z7z1s4s7s1z2z3z", "123456m2345678p"], dealer=0)
    game.apply(hupai.Action("discard", 0, 10))  # 2p
    assert game.seats_to_act == (1,)
    observation = game.observation(1)
    assert any(a.kind == "win" for a in observation.legal_actions)
    assert EVBot(1).act(observation).kind == "pass"
    assert EVBot(1, hazard=1.0).act(observation).kind == "win"
    assert GreedyBot(1).act(observation).kind == "win"
    discard_all = stacked_game(["2p1z2z3z4z5z6z7z1s4s7s1z2z3z", "123456m2345678p"], dealer=0,
                               options={"discard_pays": "all_three"})
    discard_all.apply(hupai.Action("discard", 0, 10))
    # GD-23 all_three: the discarder pays three shares, so a self-draw gains only 自摸's 番.
    assert EVBot(1).act(discard_all.observation(1)).kind == "win"
