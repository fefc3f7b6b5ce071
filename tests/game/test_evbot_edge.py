"""EVBot's edges over GreedyBot (issue 22 item 4), each in a situation where the two choose differently for the
stated reason: Guangdong's kongs (GD-12, GD-20, GD-27), the kinds a seat has let pass, Wai Huzi's red cards
(火火翻, WH-35) and where it lets them go."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import hupai
import pytest
from hupai.actions import Action
from hupai.bots import GreedyBot, _own_groups
from hupai.ev import EVBot, _passed
from hupai.game import Game
from hupai.game.scripted import stacked_game
from hupai.observation import Observation
from hupai.rules import advice
from hupai.rules.waihuzi import advice as waihuzi_advice
from hupai.rules.waihuzi.advice import RED_REACH, RED_SHED
from hupai.zipai import RED_KINDS, Declared

RED_DRAGON = 33  # 7z 中


def test_guangdong_evbot_declares_a_concealed_kong_that_keeps_its_shanten() -> None:
    """GD-12, GD-20: a 暗杠 of four 中 held as a pung and a spare keeps the hand ready and adds a replacement draw
    (a self-draw on it is 杠上开花, at least 3 番); GreedyBot discards instead. A kong whose fourth tile the hand
    uses in a run (1111m23m) would cost a step of shanten: EVBot discards then."""
    game = stacked_game(["7z7z7z7z123m456p789s1s", "123456m2345678p"], dealer=0)
    observation = game.observation(0)
    kong = hupai.Action("kong", 0, RED_DRAGON, (), "concealed")
    assert kong in observation.legal_actions
    assert EVBot(0).act(observation) == kong
    assert GreedyBot(0).act(observation).kind == "discard"
    game.apply(kong)  # legal: the replacement is drawn and the seat discards
    assert game.seats_to_act == (0,) and game.observation(0).drawn_from == "replacement"

    breaks = stacked_game(["1111m23m456p789s15z", "456789m2345678p"], dealer=0).observation(0)
    assert hupai.Action("kong", 0, 0, (), "concealed") in breaks.legal_actions
    assert EVBot(0).act(breaks).kind == "discard"


def test_guangdong_evbot_claims_a_kong_on_a_discard_that_keeps_its_shanten() -> None:
    """GD-12, GD-26: seat 1 holds a concealed 中 triplet and is ready; on a discarded 中 the kong keeps it ready
    with a replacement draw (杠上开花 on it is paid by the discarder). GreedyBot claims only what lowers its
    shanten, and a pung or kong here does not."""
    game = stacked_game(["7z1z2z3z4z5z6z1s4s7s1p4p7p2m", "7z7z7z123m456p789s1s"], dealer=0)
    game.apply(hupai.Action("discard", 0, RED_DRAGON))
    observation = game.observation(1)
    kinds = {a.kind for a in observation.legal_actions}
    assert {"kong", "pung", "pass"} <= kinds
    assert EVBot(1).act(observation).kind == "kong"
    assert GreedyBot(1).act(observation).kind == "pass"


def test_guangdong_adds_a_kong_only_of_an_honor() -> None:
    """GD-27: a 补杠 can be robbed, and the robbed seat pays three shares of at least 3 番, where discarding the
    tile would cost one. Nobody can wait on an honor whose four copies are this seat's, so only that one is
    added."""
    observation = stacked_game(["7z7z7z7z123m456p789s1s", "123456m2345678p"], dealer=0).observation(0)
    guangdong = advice("guangdong")
    honor = hupai.Action("kong", 0, RED_DRAGON, (), "added")
    suit = hupai.Action("kong", 0, 0, (), "added")  # 1m
    assert guangdong.worth_kong(observation, [suit]) is None
    assert guangdong.worth_kong(observation, [suit, honor]) == honor
    assert advice("yunxiao").worth_kong(observation, [honor]) is None  # other systems: GreedyBot's play


def test_kawuxing_evbot_declares_a_kong_that_is_paid_at_once() -> None:
    """KW-12, KW-15: a 暗杠 is paid 2 by each other seat at once and kept whatever follows; with the hand's shanten
    kept, EVBot declares it (GreedyBot never kongs)."""
    game = stacked_game(["7z7z7z7z123p456p789s1s", "2345678p234567s"], dealer=0, rules="kawuxing")
    observation = game.observation(0)
    kong = hupai.Action("kong", 0, RED_DRAGON, (), "concealed")
    assert EVBot(0).act(observation) == kong
    assert GreedyBot(0).act(observation).kind == "discard"


def test_passed_reads_the_discards_made_after_each_seat_moved() -> None:
    """A seat offered a win takes it: after seat 0 drew from the wall, seat 1 (its 下家) has let pass the last
    discards of seats 2 and 3, seat 2 that of seat 3; seat 3 (the 上家) moved last. On any other draw nothing is
    known."""
    game = stacked_game(["123456m2345678p", "123456m2345678p"], dealer=0)
    base = game.observation(0)
    piles = ((1,), (2, 3), (4, 5), (6,))
    observation = dataclasses.replace(base, discards=piles, drawn_from="wall")
    assert _passed(observation) == [frozenset(), frozenset({5, 6}), frozenset({6}), frozenset()]
    assert _passed(dataclasses.replace(observation, drawn_from="replacement")) == [frozenset()] * 4


def _red_cards(observation: Observation) -> int:
    """The red cards in the seat's hand and its groups, whole (a 歪 or 溜 shows one card up, WH-9)."""
    seat = observation.seat
    held = sum(observation.counts[card] for card in RED_KINDS)
    groups = _own_groups(seat, observation.melds[seat])
    return held + sum(card in RED_KINDS for group in groups for card in group.cards)


def _greedy_decisions(seeds: range) -> Iterator[tuple[int, Observation, Action]]:
    """Every decision of GreedyBot's Wai Huzi games at ``seeds``: (seat, its observation, GreedyBot's action); the
    action is applied once the caller has looked."""
    for seed in seeds:
        game = Game("waihuzi", seed=seed)
        bots = [GreedyBot(s) for s in range(3)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            greedy = bots[seat].act(observation)
            yield seat, observation, greedy
            game.apply(greedy)


def _red_discard_choices(seeds: range, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """Over GreedyBot's games: the turns where EVBot's discard differs from GreedyBot's for a hand of RED_REACH red
    cards or more (each a red card given up for a black one) and for a hand of one to RED_SHED (each a black card
    given up for a red one); and the turns where a hand with fewer than RED_REACH red cards plays GreedyBot's red
    card although EVBot keeping red cards at any count would play a black one."""
    kept = shed = kept_greedy = 0
    for seat, observation, greedy in _greedy_decisions(seeds):
        kinds = [a.kind for a in observation.legal_actions]
        if observation.phase == "turn" and greedy.kind == "discard" and "win" not in kinds:
            ev = EVBot(seat).act(observation)
            reds = _red_cards(observation)
            if ev != greedy and reds >= RED_REACH:
                assert greedy.tile in RED_KINDS and ev.tile not in RED_KINDS
                kept += 1
            elif ev != greedy:
                assert greedy.tile not in RED_KINDS and ev.tile in RED_KINDS and 0 < reds <= RED_SHED
                shed += 1
            elif greedy.tile in RED_KINDS:
                with monkeypatch.context() as patch:
                    patch.setattr(waihuzi_advice, "RED_REACH", 0)  # keep red cards whatever their count
                    always = EVBot(seat).act(observation)
                if always != greedy:
                    assert always.tile not in RED_KINDS and reds < RED_REACH
                    kept_greedy += 1
    return kept, shed, kept_greedy


def test_waihuzi_evbot_keeps_its_red_cards_where_the_shape_does_not_mind(monkeypatch: pytest.MonkeyPatch) -> None:
    """WH-35 火火翻: a win with r >= 10 red cards is worth 2^(r-9) times as much. Where GreedyBot's discard is a red
    card, the hand is not ready and holds RED_REACH (8) red cards or more, EVBot discards a black card that leaves
    the shape as close to a win."""
    kept, _, _ = _red_discard_choices(range(30), monkeypatch)
    assert kept > 0


def test_waihuzi_evbot_gives_up_its_last_red_cards_where_the_shape_does_not_mind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """WH-35 一点红 (×4, one red card) and 黑胡子 (×8, none): where GreedyBot's discard is black, the hand is not
    ready and holds one or two red cards (RED_SHED), EVBot discards a red card that leaves the shape as close to a
    win; with the shedding off it plays GreedyBot's card."""
    _, shed, _ = _red_discard_choices(range(60), monkeypatch)
    assert shed > 0
    with monkeypatch.context() as patch:
        patch.setattr(waihuzi_advice, "RED_SHED", 0)
        assert _red_discard_choices(range(60), monkeypatch)[1] == 0


def test_waihuzi_evbot_gives_up_a_red_card_far_from_huohuofan(monkeypatch: pytest.MonkeyPatch) -> None:
    """WH-35 火火翻 needs ten red cards: a hand with fewer than RED_REACH (8) red cards rarely ends with ten, and a
    red card kept there costs 息 and ways to win. There EVBot discards GreedyBot's red card where, keeping red cards
    at any count, it would discard a black card that leaves the shape as close to a win."""
    _, _, kept_greedy = _red_discard_choices(range(30), monkeypatch)
    assert kept_greedy > 0


def test_waihuzi_evbot_takes_a_piao_of_three_held_cards_for_its_outer_yuan() -> None:
    """WH-34: a 飘 is always 外元, ×2 on the hand's win. Over GreedyBot's games, where a seat whose hand is not
    ready (and has made a group: no 报听 to keep) is offered a 飘 of three held cards on another seat's card, EVBot
    takes the 飘 where GreedyBot does not, and only where the hand keeps the 5 息 a win needs (WH-32) after it."""
    taken = kept = 0
    judge = advice("waihuzi").judge
    for seat, observation, greedy in _greedy_decisions(range(40)):
        piao = [a for a in observation.legal_actions if a.kind == "piao"]
        kinds = [a.kind for a in observation.legal_actions]
        counts = bytes(observation.counts)
        if observation.phase != "turn" and piao and "win" not in kinds and counts[piao[0].tile] >= 3:
            groups = _own_groups(seat, observation.melds[seat])
            if groups and judge(counts, groups).wait_value == 0:
                card = piao[0].tile
                after = bytearray(counts)
                after[card] -= 3
                xi = judge(bytes(after), (*groups, Declared.piao(card))).xi
                ev = EVBot(seat).act(observation)
                assert greedy.kind != "piao"
                assert (ev == piao[0]) is (xi >= 5)
                taken += ev == piao[0]
                kept += ev != piao[0]
    assert taken > 0 and kept > 0
