"""EVBot (issue 22 item 4): legal, seeded play in every system; a shown hand's waits avoided; a discard win let pass
for a self-draw only when the model says it is worth more."""

from __future__ import annotations

import hupai
import pytest
from hupai.bots import GreedyBot
from hupai.ev import EVBot, _live_scores, _shape_danger
from hupai.game import Game, play
from hupai.game.scripted import stacked_game
from hupai.rules import advice
from hupai.rules.base_advice import Advice

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


def _turn(hand: str) -> hupai.Observation:
    """The dealer's observation at its first turn: ``hand`` dealt, and 2p drawn (the filler's first tile)."""
    game = stacked_game([hand, "123456m2345678p"], dealer=0)
    return game.observation(0)


def test_guangdong_discard_values_double_per_fan() -> None:
    """GD-16..18: a share is base x 2^番. A 中 pung (GD-17: +1 番) doubles a hand's value and breaking it to a pair
    loses most of that; a hand one suit plus honors (混一色, GD-16: 2 番) is worth four times as much as one that is
    not, and the value stops at the 番 cap."""
    observation = _turn("123456789m5z5z5z1p")
    discards = {a.tile: a for a in observation.legal_actions if a.kind == "discard" and not a.flag}
    guangdong = advice("guangdong")
    value = dict(zip(discards, guangdong.discard_values(observation, list(discards.values())), strict=True))
    one_m, one_p, two_p, red = 0, 9, 10, 31
    assert observation.hand == (*range(11), red, red, red)
    assert value[one_p] == value[two_p] == 2.0 * (1 + 3 * 0.5)  # the 中 pung, one tile off one suit
    assert value[one_m] == 2.0 * (1 + 3 * 0.2)  # the 中 pung, two tiles off
    assert value[red] < value[one_p]  # the 中 pung broken to a pair
    pure = _turn("123456789m5z5z5z6z")
    pure_discards = [a for a in pure.legal_actions if a.kind == "discard" and not a.flag]
    assert max(guangdong.discard_values(pure, pure_discards)) == 2.0 ** 3  # 混一色 + 中 pung + 发 pair: the cap


def test_guangdong_evbot_weighs_improving_tiles_by_the_hand_value() -> None:
    """GD-16..18: among the discards that keep the best shanten, EVBot takes the one whose improving tiles (the
    copies it has not seen) times the hand's value (the advice's discard_values) is largest; GreedyBot counts the
    tiles alone."""
    guangdong = advice("guangdong")
    differ = 0
    for seed in range(12):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        bots = [EVBot(s) for s in range(4)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            action = bots[seat].act(observation)
            discards = [a for a in observation.legal_actions if a.kind == "discard" and not a.flag]
            if observation.phase == "turn" and action in discards and len(discards) == len(observation.legal_actions):
                scores = _live_scores(observation, guangdong, discards)
                best = max(score // 256 for score in scores)
                at_best = [i for i, score in enumerate(scores) if score // 256 == best]
                values = guangdong.discard_values(observation, [discards[i] for i in at_best])
                weighed = {discards[i]: (scores[i] - 256 * best) * v for i, v in zip(at_best, values, strict=True)}
                assert action in weighed and weighed[action] == max(weighed.values())
                differ += max(scores) != scores[discards.index(action)]
            game.apply(action)
    assert differ > 0  # it does depart from GreedyBot's count


def test_waihuzi_evbot_keeps_a_ready_hand_from_the_deal_ungrouped() -> None:
    """WH-35, WH-38: a hand ready from the deal that wins with no 吃, 碰, 歪, 溜 or 飘 made is paid 报听's ×4. While its
    seat has made no group and is ready (so it holds the cards it was ready with), EVBot declines every claim that
    is not a win; GreedyBot takes a claim that improves its hand and forfeits the ×4."""
    waihuzi = advice("waihuzi")
    declined = greedy_claimed = 0
    for seed in range(40):
        game = Game("waihuzi", seed=seed)
        bots = [GreedyBot(s) for s in range(3)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            kinds = [a.kind for a in observation.legal_actions]
            if ("pass" in kinds and "win" not in kinds and len(kinds) > 1 and not observation.melds[seat]
                    and waihuzi.holds_ready_bonus(bytes(observation.counts))):
                assert EVBot(seat).act(observation).kind == "pass"
                declined += 1
                greedy_claimed += GreedyBot(seat).act(observation).kind != "pass"
            game.apply(bots[seat].act(observation))
    assert declined > 0 and greedy_claimed > 0


def test_waihuzi_ready_bonus_needs_a_ready_hand_without_groups() -> None:
    """WH-38: 报听 needs the hand ready and no group made since the deal."""
    from hupai.zipai import Declared, to_counts

    waihuzi = advice("waihuzi")
    ready = bytes(to_counts("x1x2x3 x4x5x6 x7x8x9 d1d2d3 d4d5d6 d10d10d10 d7"))  # 19 cards waiting on d7
    assert waihuzi.holds_ready_bonus(ready)
    assert not waihuzi.holds_ready_bonus(ready, [Declared.peng(0)])  # a group made: no 报听
    # ready by shape (d6 or d9 to d7d8, d10d10 the unit) but short of min_huxi's 5 息 (WH-32): no win to wait for
    assert not waihuzi.holds_ready_bonus(bytes(to_counts("x1x2x3 x4x5x6 x7x8x9 d1d2d3 d4d5d6 d10d10 d7 d8")))


def test_kw_16_evbot_never_discards_a_shown_hands_winning_tile_when_a_discard_as_good_is_safe() -> None:
    """KW-16: a 亮倒 hand shows its tiles, so its winning tiles are known to every seat. At every turn of
    GreedyBot-played hands where a shown hand waits on some legal discard while another discard keeps the hand as
    near a win (the same shanten), EVBot discards a tile the shown hands do not win on (GreedyBot does not
    look)."""
    kawuxing = advice("kawuxing")
    plain = type(kawuxing).rank_discards is Advice.rank_discards  # the core's copies - 256 x shanten
    checked = 0
    for seed in range(40):
        game = Game("kawuxing", seed=seed, claim_window="eligible")
        bots = [GreedyBot(seed * 3 + s) for s in range(3)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            legal = observation.legal_actions
            known = kawuxing.known_waits(observation)
            discards = [a for a in legal if a.kind == "discard" and not a.flag]
            if (known and observation.phase == "turn" and len(discards) > 1
                    and not any(a.kind in ("win", "kong") for a in legal)):
                scores = kawuxing.rank_discards(observation, discards)
                shanten = [-int(score // 256) if plain else -int(score) for score in scores]
                best = min(shanten)
                waited = set().union(*known.values())
                if (any(a.tile in waited for a in discards)
                        and any(a.tile not in waited and s == best for a, s in zip(discards, shanten, strict=True))):
                    chosen = EVBot(seat).act(observation)
                    assert chosen.tile not in waited, (seed, observation.counts, known)
                    checked += 1
            game.apply(bots[seat].act(observation))
    assert checked >= 5
