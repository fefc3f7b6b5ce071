"""The Wai Huzi flow rules (WH-4..27, 32, 38..46), one or more tests per rule id."""

from __future__ import annotations

import pytest
from hupai import Match
from hupai.actions import Action
from hupai.bots import RandomBot
from hupai.game import Game, play
from hupai.zipai import parse

from .flow_helpers import answer, bits, check_invariants, discard, find, game, has, pass_all

E3 = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"  # WH-E3: waits on d3, and x1
# Another hand waiting on d3 (six groups and a single d3: 8 息), playable beside E3
ALSO_D3 = "x2 x7 x10 d5 d5 d5 d9 d9 d9 x3 x4 x5 d6 d7 d8 x8 x9 x10 d3"


def card(text: str) -> int:
    return parse(text)[0]


@pytest.mark.rule("WH-4", "WH-1", "WH-3")
def test_wh_4_deal():
    for dealer in range(3):
        g = Game("waihuzi", seed=7, dealer=dealer)
        sizes = [sum(g.table.hands[s]) for s in range(3)]
        assert sizes[dealer] == 20 and sorted(sizes) == [19, 19, 20]
        assert g.observation(0).wall_left == 22
        assert g.current.phase == "turn" and g.current.seats == (dealer,)
        check_invariants(g)


@pytest.mark.rule("WH-5")
def test_wh_5_shen_from_the_dealers_last_card_or_the_option():
    g = Game("waihuzi", seed=11, dealer=1)
    shown = g.table.wall.tiles[19]
    assert g.table.shen_shown == shown and g.table.hands[1][shown]
    assert g.table.shen == ("odd" if (shown % 10 + 1) % 2 else "even")
    assert any(e.type == "shen" and e.tile == shown for e in g.visible_events(2))  # shown to everyone
    assert g.observation(0).extras["shen"] == g.table.shen
    fixed = Game("waihuzi", seed=11, dealer=1, options={"shen": "even"})
    assert fixed.table.shen == "even" and fixed.table.shen_shown == -1
    assert not any(e.type == "shen" for e in fixed.events)


@pytest.mark.rule("WH-5", "WH-6", "WH-46")
def test_wh_6_match_dealers_and_the_session_shen():
    match = Match("waihuzi", seed=5, claim_window="eligible")
    assert match.first_dealer == 0 and match.dealer == 0
    first = match.new_game()
    shen = first.table.shen
    saw_drawn = saw_win = False
    game_ = first
    for hand in range(12):
        if hand:
            game_ = match.new_game()
            assert game_.table.shen == shen and game_.table.shen_shown == -1  # carried, not drawn again
        dealer = match.dealer
        assert game_.table.dealer == dealer
        result = play(game_, [RandomBot(hand * 3 + s) for s in range(3)])
        if result.winners:
            saw_win = True
            assert result.next_dealer == result.winners[0]
        else:
            saw_drawn = True
            assert result.next_dealer == game_.table.haidi
        match.record(game_)
        assert match.dealer == result.next_dealer
    assert saw_drawn
    assert match.rules.options_dict()["shen"] == shen
    del saw_win


@pytest.mark.rule("WH-12", "WH-13", "WH-16")
def test_wh_12_13_dealer_first_move_and_declared_liu():
    g = game({0: "x3 x3 x3 x3"}, stock="d9")
    kinds = {a.kind for a in g.legal_actions(0)}
    assert kinds == {"discard", "liu"}
    g.apply(find(g, 0, "liu", "x3"))
    # 溜 replaces the discard: P1 turns up next; the dealer rests at 20 cards
    assert g.current.phase == "claim" and g.current.source == 1 and g.current.tile == card("d9")
    assert g.table.cards_held(0) == 20
    check_invariants(g)


@pytest.mark.rule("WH-10")
def test_wh_10_a_kan_or_a_held_four_may_be_broken_up():
    g = game({0: "x3 x3 x3 x3 d5 d5 d5"}, stock="d9")
    assert has(g, 0, "discard", "x3") and has(g, 0, "discard", "d5") and has(g, 0, "liu", "x3")
    discard(g, 0, "x3")  # the four stays split: three x3 held, no 溜
    assert g.table.hands[0][card("x3")] == 3 and not g.table.groups[0]


@pytest.mark.rule("WH-14")
def test_wh_14_a_discard_is_offered_to_the_other_two_and_only_the_xiajia_chows():
    g = game({0: "x5", 1: "x4 x6", 2: "x3 x4 x6 x7"}, stock="d9")
    discard(g, 0, "x5")
    assert set(g.current.seats) == {1, 2}  # the discarder is not asked
    assert has(g, 1, "chow", "x5") and not has(g, 2, "chow")
    pass_all(g)
    assert g.table.discards[0] == [card("x5")]
    assert g.current.source == 1  # the discarder's 下家 turns up next


@pytest.mark.rule("WH-15")
def test_wh_15_a_turned_up_card_is_offered_to_every_seat():
    g = game({0: "x1 x7 x8", 1: "x9 x9 x9 x7 x8", 2: "d7 d8"}, stock="x9 d5")
    discard(g, 0, "x1")
    pass_all(g)
    assert g.current.tile == card("x9") and g.current.source == 1 and set(g.current.seats) == {0, 1, 2}
    assert {a.kind for a in g.legal_actions(1)} >= {"liu", "wai", "chow", "pass"}
    assert not has(g, 0, "chow")  # only the drawer and its 下家 (P2) may 吃; P0 holds x7 x8 in vain
    pass_all(g)
    assert g.table.discards[1] == [card("x9")]  # unclaimed: to the drawer's pile; it does not discard
    assert g.current.source == 2 and g.current.phase == "claim"


@pytest.mark.rule("WH-15")
def test_wh_15_others_may_piao_or_peng_and_the_next_seat_chows():
    g = game({0: "x1", 2: "x9 x9 x9 x7 x8"}, stock="x9 d5")
    discard(g, 0, "x1")
    pass_all(g)  # P1 turns up x9
    assert has(g, 2, "piao", "x9") and has(g, 2, "pung", "x9") and has(g, 2, "chow", "x9", "x7 x8 x9")
    answer(g, p2=find(g, 2, "piao", "x9"))
    assert g.current.source == 0  # the taker's 下家 turns up next (WH-16)
    assert g.table.groups[2][0].type == "piao" and g.table.groups[2][0].source == 1
    check_invariants(g)


@pytest.mark.rule("WH-17")
def test_wh_17_first_class_beats_a_win():
    """The drawer's 歪 outranks another seat's 胡 on the same card."""
    g = game({0: "x1", 1: "d3 d3", 2: E3}, stock="d3 d9")
    discard(g, 0, "x1")
    pass_all(g)  # P1 turns up d3
    answer(g, p1=find(g, 1, "wai", "d3"), p2=find(g, 2, "win", "d3"))
    assert not g.over and g.current.seats == (1,) and g.table.groups[1][0].type == "wai"


@pytest.mark.rule("WH-17")
def test_wh_17_win_beats_peng_and_ties_go_in_turn_order():
    g = game({0: "d3", 1: "d3 d3", 2: E3}, stock="x3")
    discard(g, 0, "d3")
    answer(g, p1=find(g, 1, "pung", "d3"), p2=find(g, 2, "win", "d3"))
    assert g.result.winners == (2,)
    g = game({0: "d3", 1: ALSO_D3, 2: E3}, stock="x3")
    discard(g, 0, "d3")
    answer(g, p1=find(g, 1, "win", "d3"), p2=find(g, 2, "win", "d3"))
    assert g.result.winners == (1,)  # one winner: the first from the discarder's 下家
    g = game({2: "d3", 0: ALSO_D3, 1: E3}, stock="x3", dealer=2)
    discard(g, 2, "d3")
    answer(g, p0=find(g, 0, "win", "d3"), p1=find(g, 1, "win", "d3"))
    assert g.result.winners == (0,)


@pytest.mark.rule("WH-18")
def test_wh_18_a_claim_leaving_no_legal_discard_is_refused():
    g = game({0: "x1"}, stock="d9")
    discard(g, 0, "x1")  # every seat at rest
    table = g.table
    flow = g._flow
    hand = table.hands[1]
    hand[:] = bytes(20)
    hand[card("x4")] = 2
    hand[card("d9")] = 2
    table.locked[1] = 1 << card("x4")
    assert not any(a.kind == "pung" for a in flow._offer_options(card("d9"), 0, False).get(1, []))
    assert not any(a.kind == "wai" for a in flow._offer_options(card("d9"), 1, True).get(1, []))
    table.locked[1] = 0
    assert any(a.kind == "pung" for a in flow._offer_options(card("d9"), 0, False).get(1, []))
    # a chow whose own locks (WH-26) would leave nothing to discard
    hand[:] = bytes(20)
    for c in ("x2", "x3", "x4"):
        hand[card(c)] += 1
    hand[card("x4")] += 1
    assert flow._chows(1, card("x1")) == []  # x1x2x3 locks x1 and x4: only x4 x4 would be left
    hand[card("d5")] = 1
    assert [a.tiles for a in flow._chows(1, card("x1"))] == [tuple(parse("x1 x2 x3"))]


@pytest.mark.rule("WH-21", "WH-22")
def test_wh_21_discarding_makes_the_card_and_the_far_completer_stale():
    g = game({0: "x1 x2 x3 d5 d5"}, stock="d9")
    discard(g, 0, "x1")
    assert bits(g.table.chi_ban[0]) == {card("x1"), card("x4")}
    assert bits(g.table.peng_ban[0]) == {card("x1")}


@pytest.mark.rule("WH-24", "WH-25")
def test_wh_24_passing_a_wai_counts_as_passing_a_peng():
    g = game({0: "x1", 1: "d3 d3"}, stock="d3 d9")
    discard(g, 0, "x1")
    pass_all(g)
    assert has(g, 1, "wai", "d3")
    pass_all(g)
    assert card("d3") in bits(g.table.peng_ban[1])


@pytest.mark.rule("WH-25")
def test_wh_25_choosing_a_chow_over_a_peng_passes_the_peng():
    g = game({0: "x5", 1: "x4 x6 x5 x5"}, stock="d9")
    discard(g, 0, "x5")
    answer(g, p1=find(g, 1, "chow", "x5", "x4 x5 x6"))
    assert card("x5") in bits(g.table.peng_ban[1])


@pytest.mark.rule("WH-26")
def test_wh_26_a_chow_locks_the_chowed_value_and_the_other_completer():
    g = game({0: "x1", 1: "x2 x3 x1 x4"}, stock="d9")
    discard(g, 0, "x1")
    answer(g, p1=find(g, 1, "chow", "x1", "x1 x2 x3"))
    assert bits(g.table.locked[1]) == {card("x1"), card("x4")}
    assert not {card("x1"), card("x4")} & {a.tile for a in g.legal_actions(1) if a.kind == "discard"}


@pytest.mark.rule("WH-27", "WH-42")
def test_wh_27_a_dead_hand_pays_like_any_other():
    g = game({0: "d3", 1: E3}, stock="x3", shen="even")
    g.table.dead |= 1 << 2
    discard(g, 0, "d3")
    assert g.legal_actions(2) == (Action("pass", 2),)
    answer(g, p1=find(g, 1, "win", "d3"))
    assert g.result.payments == (-20, 40, -20)


@pytest.mark.rule("WH-32")
def test_wh_32_who_may_win_and_min_huxi():
    # never on one's own discard: P0 would win on d3 but it is its own discard
    g = game({0: "d3", 1: E3}, stock="x3")
    discard(g, 0, "d3")
    assert 0 not in g.current.seats
    # WH-E3 with min_huxi 6: only a self-drawn x1 wins (8 息)
    for min_huxi, drawer, wins in ((5, 2, True), (6, 2, False), (6, 1, True)):
        stock = "d9 x1" if drawer == 2 else "x1"
        g = game({0: "x4", 1: E3}, stock=stock, min_huxi=min_huxi)
        discard(g, 0, "x4")
        for _ in range(1 if drawer == 1 else 2):
            pass_all(g)
        assert g.current.tile == card("x1") and g.current.source == drawer
        assert has(g, 1, "win", "x1") == wins


@pytest.mark.rule("WH-38")
def test_wh_38_dealer_ready_after_its_first_discard():
    g = game({0: E3 + " x3"}, stock="d9 d3 x3", shen="even")
    discard(g, 0, "x3")
    assert g.table.ready_deal[0] == 1
    pass_all(g)  # the discard
    pass_all(g)  # P1's d9
    answer(g, p0=find(g, 0, "win", "d3"))  # P2's d3
    assert "bao_ting" in {p.name for p in g.result.wins[0].score.patterns}
    assert g.result.payments == (40, -20, -20)


@pytest.mark.rule("WH-38")
def test_wh_38_a_group_voids_baoting():
    g = game({0: "x4", 1: E3}, stock="x9 d3 x3", shen="even")
    discard(g, 0, "x4")
    pass_all(g)
    pass_all(g)
    g.table.grouped |= 1 << 1  # (as any 吃 碰 歪 溜 飘 since the deal sets it)
    answer(g, p1=find(g, 1, "win", "d3"))
    assert "bao_ting" not in {p.name for p in g.result.wins[0].score.patterns}
    assert g.result.payments == (-5, 10, -5)


@pytest.mark.rule("WH-43")
def test_wh_43_cap():
    g = game({0: "d3", 1: E3}, stock="x3", shen="even", cap=10)
    discard(g, 0, "d3")
    answer(g, p1=find(g, 1, "win", "d3"))
    assert g.result.payments == (-10, 20, -10)


@pytest.mark.rule("WH-44", "WH-9")
def test_wh_44_groups_pay_nothing():
    g = game({0: "x3 x3 x3 x3"}, stock="d9")
    g.apply(find(g, 0, "liu", "x3"))
    assert not any(e.type == "payment" for e in g.events)
    view = g.observation(1).melds[0][0]
    assert view.type == "liu" and view.tiles == (card("x3"),) and view.concealed  # 1 up, 3 down


@pytest.mark.rule("WH-20", "WH-45", "WH-46")
def test_wh_45_46_drawn_hand_pays_nothing_and_the_haidi_drawer_deals():
    for seed in range(40):
        g = Game("waihuzi", seed=seed, claim_window="eligible")
        play(g, [RandomBot(seed + s) for s in range(3)])
        if g.result.drawn:
            assert g.result.payments == (0, 0, 0)
            assert g.result.next_dealer == g.table.haidi
            assert g.table.wall.head == 80
            return
    raise AssertionError("no drawn hand in 40 seeds")
