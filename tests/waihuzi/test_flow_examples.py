"""The spec's flow examples (WH-E12, WH-E14..E19) played through the engine with a stacked deal and stock."""

from __future__ import annotations

import pytest
from hupai.actions import Action
from hupai.zipai import parse

from .flow_helpers import answer, bits, check_invariants, discard, find, game, has, pass_all

E3 = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"  # WH-E3: waits on d3 (5 息)
D3 = parse("d3")[0]


def patterns(g) -> set[str]:
    return {p.name for p in g.result.wins[0].score.patterns}


# -- WH-E12: 天胡, 地胡, 报听 ------------------------------------------------------------------------------------
@pytest.mark.rule("WH-40", "WH-13", "WH-35", "WH-36")
def test_wh_e12_tianhu():
    """WH-40, WH-13: the dealer's 20 dealt cards win before its first move: 5 × 4 = 20 each."""
    g = game({0: E3 + " d3"}, stock="x3", shen="even")  # x3 is odd: no 神腰
    win = find(g, 0, "win", "d3")
    assert win.flag == "tianhu"
    g.apply(win)
    assert g.result.payments == (40, -20, -20)
    assert "tian_hu" in patterns(g) and "bao_ting" not in patterns(g)
    check_invariants(g)


@pytest.mark.rule("WH-35", "WH-36")
def test_wh_e12_dihu():
    """地胡: P1 wins on P0's first discard d3: 20 each, 报听 not added (WH-36)."""
    g = game({0: "d3", 1: E3}, stock="x3", shen="even")
    assert not has(g, 0, "win")
    discard(g, 0, "d3")
    answer(g, p1=find(g, 1, "win", "d3"))
    assert g.result.payments == (-20, 40, -20)
    assert "di_hu" in patterns(g) and "bao_ting" not in patterns(g)


@pytest.mark.rule("WH-38", "WH-39")
def test_wh_e12_baoting_and_shenyao():
    """WH-38: P1 ready from its deal, no group made, wins on a d3 turned up by P2: 20 each; with 神腰 40."""
    for shen, each in (("even", 20), ("odd", 40)):
        # P0 discards x4; P1 turns up x9, P2 turns up d3; the next stock card is x3 (odd)
        g = game({0: "x4", 1: E3}, stock="x9 d3 x3", shen=shen)
        discard(g, 0, "x4")
        for _ in range(2):  # the discard, P1's x9
            pass_all(g)
        assert g.current.tile == D3 and g.current.source == 2
        answer(g, p1=find(g, 1, "win", "d3"))
        assert g.result.payments == (-each, 2 * each, -each)
        assert "bao_ting" in patterns(g)
        assert ("shen_yao" in patterns(g)) == (shen == "odd")
        assert g.result.wins[0].context.shen_card == parse("x3")[0]


@pytest.mark.rule("WH-5", "WH-39")
def test_wh_e13_session_shen_from_the_shown_card_and_shenyao():
    """WH-E13: the first hand shows the dealer's last dealt card x7 -> 单神 (odd) for the session; after a win
    the next stock card d9 (odd) doubles the score (神腰), x4 (even) does not."""
    for next_card, each in (("d9", 40), ("x4", 20)):
        # No ``shen`` option: the dealer's given cards come last in its deal, so x7 is the card shown.
        g = game({0: "x4 x7", 1: E3}, stock=f"x9 d3 {next_card}", shen=None)
        assert g.table.shen == "odd" and g.table.shen_shown == parse("x7")[0]
        discard(g, 0, "x4")
        for _ in range(2):  # the discard, P1's x9
            pass_all(g)
        answer(g, p1=find(g, 1, "win", "d3"))
        assert g.result.payments == (-each, 2 * each, -each)  # 5 息 × 报听 4 (× 神腰 2)
        assert ("shen_yao" in patterns(g)) == (next_card == "d9")
        assert g.result.wins[0].context.shen_card == parse(next_card)[0]


# -- WH-E14: card count with 4-card groups ------------------------------------------------------------------
@pytest.mark.rule("WH-9", "WH-11", "WH-16")
def test_wh_e14_piao_on_a_discard():
    """P1 飘s P0's x6 with x6 x6 x6: no discard, P2 turns up next, P1 rests at 20 cards (WH-11, WH-16)."""
    g = game({0: "x6", 1: "x6 x6 x6"}, stock="d9")
    discard(g, 0, "x6")
    answer(g, p1=find(g, 1, "piao", "x6"))
    assert g.current.phase == "claim" and g.current.source == 2
    assert g.table.cards_held(1) == 20
    check_invariants(g)


@pytest.mark.rule("WH-9", "WH-12")
def test_wh_e14_peng_then_piao_of_the_held_fourth():
    """P1 碰s with two x6 and may add the held x6 as a 飘 instead of discarding (WH-12)."""
    g = game({0: "x6", 1: "x6 x6 x6"}, stock="d9")
    discard(g, 0, "x6")
    answer(g, p1=find(g, 1, "pung", "x6"))
    assert g.current.phase == "turn" and g.current.seats == (1,)
    g.apply(find(g, 1, "piao", "x6"))
    assert g.current.source == 2 and g.table.cards_held(1) == 20
    assert [gr.type for gr in g.table.groups[1]] == ["piao"]
    check_invariants(g)


@pytest.mark.rule("WH-9", "WH-15", "WH-16")
def test_wh_e14_liu_or_wai_of_a_turned_up_fourth():
    """P2 holds x9 x9 x9 and turns up x9: 溜 (no discard, P0 turns up next) or 歪 keeping one x9, then discard."""
    for choice in ("liu", "wai"):
        g = game({0: "x4", 2: "x9 x9 x9"}, stock="d1 x9 d5")
        discard(g, 0, "x4")
        pass_all(g)  # the discard
        pass_all(g)  # P1 turns up d1
        assert g.current.tile == parse("x9")[0] and g.current.source == 2
        answer(g, p2=find(g, 2, choice, "x9"))
        if choice == "liu":
            assert g.current.phase == "claim" and g.current.source == 0
            assert g.table.cards_held(2) == 20
        else:
            assert g.current.phase == "turn" and g.current.seats == (2,)
            assert g.table.hands[2][parse("x9")[0]] == 1
        check_invariants(g)


# -- WH-E15: 过吃 ----------------------------------------------------------------------------------------------
@pytest.mark.rule("WH-23")
def test_wh_e15_passed_chow():
    """P1 passes on chowing P0's x2 with x3 x4; nobody takes it: P1 may not chow x2, nor x5 with this x3 x4."""
    g = game({0: "x2", 1: "x3 x4 x6 x7"}, stock="x5")
    discard(g, 0, "x2")
    assert has(g, 1, "chow", "x2", "x2 x3 x4")
    pass_all(g)
    private = g.observation(1).private
    assert parse("x2")[0] in private["chi_ban"]
    assert [parse("x3")[0], parse("x4")[0], parse("x5")[0]] in [list(t) for t in private["menzi_ban"]]
    assert g.current.tile == parse("x5")[0] and g.current.source == 1
    runs = {a.tiles for a in g.legal_actions(1) if a.kind == "chow"}
    assert tuple(parse("x3 x4 x5")) not in runs
    assert tuple(parse("x4 x5 x6")) in runs and tuple(parse("x5 x6 x7")) in runs


# -- WH-E16: 锁牌 and own discards -------------------------------------------------------------------------------
@pytest.mark.rule("WH-26")
def test_wh_e16_locked_card():
    """P1 chows x1 with x2 x3: its x4 is locked and cannot be discarded (WH-26)."""
    g = game({0: "x1", 1: "x2 x3 x4"}, stock="d9")
    discard(g, 0, "x1")
    answer(g, p1=find(g, 1, "chow", "x1", "x1 x2 x3"))
    assert g.current.seats == (1,)
    discards = {a.tile for a in g.legal_actions(1) if a.kind == "discard"}
    assert parse("x4")[0] not in discards and discards
    assert parse("x4")[0] in g.observation(1).private["locked"]
    from hupai.errors import IllegalAction

    before = g.to_json()
    with pytest.raises(IllegalAction, match="locked"):
        g.apply(Action("discard", 1, parse("x4")[0]))
    assert g.to_json() == before


@pytest.mark.rule("WH-21", "WH-22")
def test_wh_e16_own_discard_bans():
    """P2 holds x1 x2 x3 and discards x1: it may no longer chow x1 or x4 (WH-21, WH-22)."""
    g = game({2: "x1 x2 x3 x5 x6"}, stock="x4", dealer=2)
    discard(g, 2, "x1")
    assert {parse("x1")[0], parse("x4")[0]} <= set(g.observation(2).private["chi_ban"])
    # P2 turns up x4 itself (the drawer may 吃 its own card, WH-15): refused, x4 is 臭 for P2
    g2 = game({2: "x1 x2 x3 x5 x6"}, stock="d9 d8 x4", dealer=2)
    discard(g2, 2, "x1")
    for _ in range(3):  # the discard, P0's d9, P1's d8
        pass_all(g2)
    assert g2.current.source == 2 and g2.current.tile == parse("x4")[0]
    assert not has(g2, 2, "chow")  # neither x2x3x4 nor x4x5x6


# -- WH-E17: 死手 --------------------------------------------------------------------------------------------------
@pytest.mark.rule("WH-24", "WH-27")
def test_wh_e17_dead_hand():
    """P2 passes the 碰 of P0's turned-up d6; when P1 later discards d6, P2 may 碰 it, and is 死手 after."""
    g = game({0: "x10", 1: "x3 x4 d6", 2: "d6 d6"}, stock="d1 d2 d6 x5 d9 x8")
    discard(g, 0, "x10")
    pass_all(g)  # the discard
    pass_all(g)  # P1 turns up d1
    pass_all(g)  # P2 turns up d2
    assert g.current.tile == parse("d6")[0] and g.current.source == 0
    assert has(g, 2, "pung", "d6")
    pass_all(g)  # P2 passes its 碰: d6 is peng-banned
    assert parse("d6")[0] in g.observation(2).private["peng_ban"]
    answer(g, p1=find(g, 1, "chow", "x5", "x3 x4 x5"))  # P1 chows its own x5
    discard(g, 1, "d6")
    answer(g, p2=find(g, 2, "pung", "d6"))
    assert g.observation(0).extras["dead"] == (False, False, True)  # shown to all
    actions = g.legal_actions(2)
    assert {a.kind for a in actions} == {"discard"}
    g.apply(actions[0])
    # from now on P2 is offered nothing but pass, and can never win
    while not g.over:
        if g.current.phase == "claim":
            assert g.legal_actions(2) in ((), (Action("pass", 2),))
            pass_all(g)
        else:
            seat = g.current.seats[0]
            g.apply(next(a for a in g.legal_actions(seat) if a.kind == "discard"))
    assert g.result.drawn


# -- WH-E18: priority and 臭 ----------------------------------------------------------------------------------------
@pytest.mark.rule("WH-17", "WH-25")
def test_wh_e18_peng_outranks_chow_and_the_pass_does_not_count():
    g = game({0: "x5", 1: "x4 x6", 2: "x5 x5"}, stock="d9")
    discard(g, 0, "x5")
    answer(g, p1=Action("pass", 1), p2=find(g, 2, "pung", "x5"))
    assert g.current.seats == (2,)
    assert parse("x5")[0] not in bits(g.table.chi_ban[1])


@pytest.mark.rule("WH-23", "WH-24")
def test_wh_e18_both_pass():
    g = game({0: "x5", 1: "x4 x6", 2: "x5 x5"}, stock="d9")
    discard(g, 0, "x5")
    pass_all(g)
    assert parse("x5")[0] in bits(g.table.chi_ban[1])
    assert parse("x5")[0] in bits(g.table.peng_ban[2])


@pytest.mark.rule("WH-17", "WH-25")
def test_wh_e18_chosen_chow_loses_to_the_peng():
    """Both claim: P2's 碰 outranks P1's 吃 (WH-17); P1's chow was outranked, not passed."""
    g = game({0: "x5", 1: "x4 x6", 2: "x5 x5"}, stock="d9")
    discard(g, 0, "x5")
    answer(g, p1=find(g, 1, "chow", "x5", "x4 x5 x6"), p2=find(g, 2, "pung", "x5"))
    assert [gr.type for gr in g.table.groups[2]] == ["peng"] and not g.table.groups[1]
    assert parse("x5")[0] not in bits(g.table.chi_ban[1])


# -- WH-E19: 海底 and 黄庄 ------------------------------------------------------------------------------------------
STOCK_22 = "x1 x1 x2 x2 x3 x3 x4 x4 x8 x8 x9 x9 x10 x10 d10 d10 x6 x6 x3 d10 d10 d3"


def _to_last(g) -> None:
    discard(g, 0, "d9")
    for _ in range(22):  # the discard, then 21 turned-up cards
        pass_all(g)
    assert g.table.wall.head == 80 and g.current.source == 1  # P1 turned up the 22nd card


@pytest.mark.rule("WH-19")
def test_wh_e19_haidi_blocked_when_its_drawer_can_wai():
    for drawer in ("d3 d3", "x4 x7 x9 d1 d1 d2 d2 d4 d4 d5 d5 d6 d6 d7 d7 d8 d8 d9 x2"):
        g = game({0: "d9", 1: drawer, 2: E3}, stock=STOCK_22)
        _to_last(g)
        # P2 is offered its win either way: whether P1 could 歪 the 海底 card is P1's hidden hand (no leak).
        assert has(g, 2, "win") and g.observation(2).legal_actions == g.legal_actions(2)
        assert has(g, 1, "wai", "d3") == (drawer == "d3 d3")
    g = game({0: "d9", 1: "d3 d3", 2: E3}, stock=STOCK_22)
    _to_last(g)
    answer(g, p2=find(g, 2, "win", "d3"))  # P1 declines its 歪, P2 claims the win ...
    assert g.over and g.result.drawn and not g.result.winners  # ... WH-19: nobody may win on it: 黄庄


@pytest.mark.rule("WH-19", "WH-35", "WH-39")
def test_wh_e19_haidi_won_otherwise():
    p1 = "x4 x7 x9 d1 d1 d2 d2 d4 d4 d5 d5 d6 d6 d7 d7 d8 d8 d9 x2"  # no d3: it cannot 溜 or 歪 the 海底
    g = game({0: "d9", 1: p1, 2: E3}, stock=STOCK_22, shen="even")
    _to_last(g)
    answer(g, p2=find(g, 2, "win", "d3"))
    assert "hai_di_lao" in patterns(g) and g.result.wins[0].context.last_tile
    assert g.result.wins[0].context.shen_card == D3  # WH-39: no stock left: the 海底 card


@pytest.mark.rule("WH-20", "WH-45", "WH-46")
def test_wh_e19_drawn_hand():
    g = game({0: "d9", 1: "d3 d3", 2: E3}, stock=STOCK_22)
    _to_last(g)
    pass_all(g)
    assert g.over and g.result.drawn and g.result.payments == (0, 0, 0)
    assert g.result.next_dealer == 1
    check_invariants(g)
