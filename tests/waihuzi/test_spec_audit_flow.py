"""Independent audit of the Wai Huzi flow against waihuzi.md (WH-11..27, WH-38): new stacked deals built from the
rule text (not the worked examples), each checked against what the spec says must happen."""

from __future__ import annotations

import pytest
from hupai.actions import Action
from hupai.game.state.zipai import menzi_triples
from hupai.zipai import parse

from .flow_helpers import answer, bits, check_invariants, discard, find, game, has, pass_all


def card(text: str) -> int:
    return parse(text)[0]


def cards(text: str) -> set[int]:
    return set(parse(text))


# ---------------------------------------------------------------- 臭牌 from discards (WH-21, WH-22)


@pytest.mark.rule("WH-21")
def test_wh_21_a_discard_completing_three_menzi_bans_each_far_completer():
    """P0 holds x3 x4 x6 x7 and discards x5: the 门子 x3x4 (far completer x2), x4x6 (none) and x6x7 (x8) are left:
    chi-ban {x5, x2, x8}, peng-ban {x5}."""
    g = game({0: "x3 x4 x5 x6 x7"}, stock="d9")
    discard(g, 0, "x5")
    assert bits(g.table.chi_ban[0]) == cards("x5 x2 x8")
    assert bits(g.table.peng_ban[0]) == cards("x5")


@pytest.mark.rule("WH-21", "WH-7")
def test_wh_21_two_seven_ten_menzi_has_no_far_completer():
    """Discarding x2 with x3 x4 x7 x10 held: x3x4 adds x5; x7x10 is completed only by x2 (二七十), so nothing more."""
    g = game({0: "x2 x3 x4 x7 x10"}, stock="d9")
    discard(g, 0, "x2")
    assert bits(g.table.chi_ban[0]) == cards("x2 x5")


@pytest.mark.rule("WH-22", "WH-21")
def test_wh_22_no_chow_of_a_value_one_has_discarded():
    """P0 discards x5 (keeping x4 x6); P2 later 碰s d9 and discards x5: P0, P2's 下家, holds the 门子 x4x6 but may
    not 吃 x5 (WH-22)."""
    g = game({0: "x4 x5 x6", 2: "d9 d9 x5"}, stock="d9 d1")
    discard(g, 0, "x5")
    pass_all(g)  # nobody takes P0's x5
    assert g.current.tile == card("d9") and g.current.source == 1
    answer(g, p2=find(g, 2, "pung", "d9"))
    discard(g, 2, "x5")
    assert not has(g, 0, "chow", "x5")
    check_invariants(g)


# ---------------------------------------------------------------- claims (WH-14..17)


@pytest.mark.rule("WH-15", "WH-17")
def test_wh_15_the_drawer_and_its_xiajia_may_chow_a_drawn_card_the_drawer_first():
    """P1 turns up x5: P1 (x4 x6) and its 下家 P2 (x6 x7) may 吃 it, P0 (x3 x4, the drawer's 上家) may not.
    Both chow: the same class goes to the seat first in turn order from the drawer (WH-17): P1."""
    g = game({0: "d9 x3 x4", 1: "x4 x6", 2: "x6 x7"}, stock="x5 d1")
    discard(g, 0, "d9")
    pass_all(g)
    assert g.current.tile == card("x5") and g.current.source == 1
    assert has(g, 1, "chow", "x5", "x4 x5 x6") and has(g, 2, "chow", "x5", "x5 x6 x7")
    assert not has(g, 0, "chow")
    answer(g, p1=find(g, 1, "chow", "x5", "x4 x5 x6"), p2=find(g, 2, "chow", "x5", "x5 x6 x7"))
    assert [gr.type for gr in g.table.groups[1]] == ["chi"] and not g.table.groups[2]
    assert g.current.phase == "turn" and g.current.seats == (1,)  # WH-16: a 吃 leads to a discard state
    assert card("x5") not in bits(g.table.chi_ban[2])  # outranked in its class, not a pass (WH-25)
    check_invariants(g)


@pytest.mark.rule("WH-16", "WH-15", "WH-11")
def test_wh_16_a_piao_of_another_seats_drawn_card_passes_the_turn_to_the_takers_xiajia():
    """P1 turns up x6 and P0 飘s it with x6 x6 x6: no discard; the next card is turned up by P0's 下家 P1 (not by
    P1's 下家 P2); P0 rests at 20 cards (WH-11)."""
    g = game({0: "d9 x6 x6 x6"}, stock="x6 d1")
    discard(g, 0, "d9")
    pass_all(g)
    assert g.current.tile == card("x6") and g.current.source == 1
    answer(g, p0=find(g, 0, "piao", "x6"))
    assert g.current.phase == "claim" and g.current.source == 1 and g.current.tile == card("d1")
    assert g.table.cards_held(0) == 20
    check_invariants(g)


@pytest.mark.rule("WH-12", "WH-11", "WH-16")
def test_wh_12_liu_of_four_held_replaces_the_discard_after_a_peng():
    """P1 碰s P0's d6 and, in the discard state that follows, declares a 溜 of its four held x3: no discard, P2
    turns up next, P1 rests at 20 cards."""
    g = game({0: "d6", 1: "x3 x3 x3 x3 d6 d6"}, stock="d1")
    discard(g, 0, "d6")
    answer(g, p1=find(g, 1, "pung", "d6"))
    assert has(g, 1, "liu", "x3")
    g.apply(find(g, 1, "liu", "x3"))
    assert g.current.phase == "claim" and g.current.source == 2
    assert [gr.type for gr in g.table.groups[1]] == ["peng", "liu"]
    assert g.table.cards_held(1) == 20
    check_invariants(g)


@pytest.mark.rule("WH-9", "WH-12", "WH-15")
def test_wh_9_no_liu_of_a_wai_and_its_held_fourth():
    """A 歪 grows into a 溜 only with a self-drawn fourth (WH-9); in a discard state only four held cards or a 碰 and
    its held fourth are declared (WH-12). P2 歪s its turned-up x9 keeping one: no 溜 is offered then."""
    g = game({0: "x4", 2: "x9 x9 x9"}, stock="d1 x9 d5")
    discard(g, 0, "x4")
    pass_all(g)  # the discard
    pass_all(g)  # P1 turns up d1
    answer(g, p2=find(g, 2, "wai", "x9"))
    assert g.table.hands[2][card("x9")] == 1
    assert not has(g, 2, "liu") and not has(g, 2, "piao")


# ---------------------------------------------------------------- passes (WH-23..25)


@pytest.mark.rule("WH-25", "WH-23", "WH-24")
def test_wh_25_a_chow_outranked_by_the_drawers_liu_is_not_a_pass():
    """P1 turns up x5 holding a 坎 x5; its 下家 P2 holds x6 x7. P1 溜s: P2's unused chow does not count (WH-25)."""
    g = game({0: "d9", 1: "x5 x5 x5", 2: "x6 x7"}, stock="x5 d1")
    discard(g, 0, "d9")
    pass_all(g)
    assert has(g, 2, "chow", "x5", "x5 x6 x7")
    answer(g, p1=find(g, 1, "liu", "x5"))
    assert card("x5") not in bits(g.table.chi_ban[2]) and not g.table.menzi_ban[2]
    assert card("x5") not in bits(g.table.peng_ban[1])  # it took the card: its 歪 option was not passed


@pytest.mark.rule("WH-23", "WH-24", "WH-25")
def test_wh_23_24_both_pass_a_drawn_card():
    """Same deal, nobody takes the x5: P2's chi-ban gets x5 and its menzi-ban (x6x7, x8); P1 passed its 溜 and
    歪: its peng-ban gets x5 (WH-24: 歪 counts as 碰)."""
    g = game({0: "d9", 1: "x5 x5 x5", 2: "x6 x7"}, stock="x5 d1")
    discard(g, 0, "d9")
    pass_all(g)
    pass_all(g)
    assert card("x5") in bits(g.table.chi_ban[2])
    assert (card("x6"), card("x7"), card("x8")) in menzi_triples(g.table.menzi_ban[2])
    assert card("x5") in bits(g.table.peng_ban[1])


@pytest.mark.rule("WH-24")
def test_wh_24_letting_a_card_go_with_three_held_is_a_passed_peng():
    """P1 holds x6 x6 x6 and lets P0's x6 go though it could 飘 or 碰 it: x6 joins its peng-ban."""
    g = game({0: "x6", 1: "x6 x6 x6"}, stock="d1")
    discard(g, 0, "x6")
    assert has(g, 1, "piao", "x6") and has(g, 1, "pung", "x6")
    pass_all(g)
    assert card("x6") in bits(g.table.peng_ban[1])


@pytest.mark.rule("WH-24", "WH-27")
def test_wh_27_peng_of_a_passed_discard_value_on_a_drawn_card_is_dead():
    """P1 passes P0's discarded d6 (pair d6 d6): peng-ban d6. P2 later turns up the last d6 and P1 碰s it: it is
    死手 (shown at once), makes its discard, and is then offered nothing, not even on a card it could 碰."""
    g = game({0: "d6 x2", 1: "d6 d6 d8 d8 x9"}, stock="d1 d6 d8 d2")
    discard(g, 0, "d6")
    pass_all(g)
    assert card("d6") in bits(g.table.peng_ban[1])
    pass_all(g)  # P1 turns up d1
    assert g.current.tile == card("d6") and g.current.source == 2
    answer(g, p1=find(g, 1, "pung", "d6"))
    assert (g.table.dead >> 1 & 1) and g.observation(0).extras["dead"][1]
    assert g.current.phase == "turn" and g.current.seats == (1,)
    assert not has(g, 1, "liu") and not has(g, 1, "piao")
    discard(g, 1, "x9")
    pass_all(g)  # nobody takes P1's x9: P2 turns up d8, which P1 could otherwise 碰
    assert g.current.tile == card("d8") and g.current.source == 2
    assert g.legal_actions(1) == (Action("pass", 1),)
    check_invariants(g)


# ---------------------------------------------------------------- 锁牌 (WH-26)


@pytest.mark.rule("WH-26")
def test_wh_26_chow_with_a_middle_menzi_locks_both_far_completers():
    """P1 chows P0's x7 with x8 x9: the copies of x7 in its hand and of x10 (x8x9's other completer) are locked and
    never offered as discards; its d3 is."""
    g = game({0: "x7", 1: "x7 x8 x9 x10 d3"}, stock="d1")
    discard(g, 0, "x7")
    answer(g, p1=find(g, 1, "chow", "x7", "x7 x8 x9"))
    assert bits(g.table.locked[1]) == cards("x7 x10")
    offered = {a.tile for a in g.legal_actions(1) if a.kind == "discard"}
    assert card("d3") in offered and not cards("x7 x10") & offered


# ---------------------------------------------------------------- 海底 (WH-19)

STOCK_22 = "x1 x1 x2 x2 x3 x3 x4 x4 x8 x8 x9 x9 x10 x10 d10 d10 x6 x6 x3 d10 d10 d3"
E3 = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"  # waits on d3


@pytest.mark.rule("WH-19")
def test_wh_19_haidi_blocked_when_its_drawer_can_liu():
    """P1 turns up the 22nd card d3 holding a 坎 d3: it could 溜 it, so P2 (waiting on d3) may not win on it. P2
    is still offered the win (whether P1 could 溜 is P1's hidden hand); its win does not stand: 黄庄."""
    g = game({0: "d9", 1: "d3 d3 d3", 2: E3}, stock=STOCK_22)
    discard(g, 0, "d9")
    for _ in range(22):
        pass_all(g)
    assert g.table.wall.head == 80 and g.current.source == 1 and g.current.tile == card("d3")
    assert has(g, 1, "liu", "d3")
    assert has(g, 2, "win")
    answer(g, p2=find(g, 2, "win", "d3"))  # P1 passes its 溜
    assert g.over and g.result.drawn and not g.result.winners


# ---------------------------------------------------------------- 报听 (WH-38)

OPEN_LIU = "x8 x8 x8 x8 x1 x1 x1 x2 x7 x10 d1 d2 d3 d4 d5 d6 x3 x4 x5 d9"  # the dealer's 20: 溜 x8 then ready


@pytest.mark.rule("WH-38", "WH-12", "WH-13", "WH-34")
def test_wh_38_the_dealers_opening_liu_keeps_bao_ting():
    """P0 opens with a 溜 of x8 (WH-12, replacing its first discard); its 16 cards then wait on d9. P1 turns up
    d9 and P0 wins: 溜 4 + 坎 x1 3 + x2x7x10 1 + two plain runs + x3x4x5 + pair d9 (单碰 1) = 9 息; 报听 ×4
    (the 溜 was its 报听 moment, not a group after it); x8 内元 ×4: 144 each."""
    g = game({0: OPEN_LIU}, stock="d9 x4")
    g.apply(find(g, 0, "liu", "x8"))
    assert g.table.ready_deal[0] == 1
    assert g.current.tile == card("d9") and g.current.source == 1
    answer(g, p0=find(g, 0, "win", "d9"))
    assert g.result.payments == (288, -144, -144)
    assert {p.name for p in g.result.wins[0].score.patterns} == {"bao_ting"}


@pytest.mark.rule("WH-27")
def test_wh_27_a_dead_seat_is_offered_nothing_but_still_turns_up():
    """A 死手 seat (P1) holding a winning wait is offered no win; its own turned-up card is offered to the others."""
    g = game({0: "d3", 1: E3, 2: "x9 x9"}, stock="x9 d1", shen="even")
    g.table.dead |= 1 << 1
    discard(g, 0, "d3")
    assert g.legal_actions(1) == (Action("pass", 1),)
    pass_all(g)
    assert g.current.source == 1 and g.current.tile == card("x9")
    assert g.legal_actions(1) == (Action("pass", 1),)
    assert has(g, 2, "pung", "x9")


@pytest.mark.rule("WH-21", "WH-27")
def test_wh_27_peng_of_a_value_one_discarded_is_dead():
    """P0 discards one of its three x5 (peng-ban x5, WH-21). P2 碰s P1's turned-up d9 and discards the last x5:
    P0 may 碰 it (offered) but not 吃 it (chi-ban), and the 碰 makes it 死手."""
    g = game({0: "x5 x5 x5 x4 x6", 2: "d9 d9 x5"}, stock="d9 d1")
    discard(g, 0, "x5")
    pass_all(g)
    answer(g, p2=find(g, 2, "pung", "d9"))
    discard(g, 2, "x5")
    assert has(g, 0, "pung", "x5") and not has(g, 0, "chow", "x5")
    answer(g, p0=find(g, 0, "pung", "x5"))
    assert (g.table.dead >> 0 & 1)


@pytest.mark.rule("WH-21", "WH-27", "WH-15")
def test_wh_27_wai_of_a_value_one_discarded_is_dead():
    """P0 discards one of its three x5, then turns up the fourth x5 itself: the 歪 is offered and makes it 死手."""
    g = game({0: "x5 x5 x5"}, stock="d1 d2 x5 d3")
    discard(g, 0, "x5")
    for _ in range(3):  # P0's x5, P1's d1, P2's d2
        pass_all(g)
    assert g.current.tile == card("x5") and g.current.source == 0
    assert has(g, 0, "wai", "x5") and not has(g, 0, "liu")
    answer(g, p0=find(g, 0, "wai", "x5"))
    assert (g.table.dead >> 0 & 1)


# ------------------------------------------------------- 天胡 / 地胡 with new hands (WH-35, WH-36, WH-39, WH-40)

TIAN = "x1 x1 x1 x3 x3 x3 x4 x4 x4 x5 x5 x5 x6 x6 x8 x8 x8 x9 x9 x9"
PAIRS_WAIT = "x1 x1 x1 x4 x4 x4 x5 x5 x5 x8 x8 x8 x9 x9 x9 x6 x6 x3 x3"  # waits on x3 or x6


@pytest.mark.rule("WH-40", "WH-13", "WH-39", "WH-36")
@pytest.mark.parametrize(("first_stock", "each"), [("d9", 38912), ("d4", 19456)])
def test_wh_40_tian_hu_with_and_without_shen_yao(first_stock: str, each: int):
    """P0 is dealt six 坎 and the pair x6: 19 息, 黑对子胡 ×32, 小字胡 ×8, 天胡 ×4 = 19456; the 神腰 card is the
    first stock card (odd 神: d9 doubles it, d4 does not). Declaring it is optional: discards are offered too."""
    g = game({0: TIAN}, stock=f"{first_stock} d1")
    assert has(g, 0, "discard")
    g.apply(find(g, 0, "win"))
    assert g.result.payments == (2 * each, -each, -each)
    assert g.result.wins[0].context.shen_card == card(first_stock)


@pytest.mark.rule("WH-35", "WH-36", "WH-38")
def test_wh_35_di_hu_on_a_new_wait():
    """P1 waits on x3 or x6 from its deal (报听 too); P0's first discard x3: triplet 1 + 坎 x1 x4 x5 x8 x9 (15) +
    pair x6 1 = 17 息; 黑对子胡 ×32, 小字胡 ×8, 地胡 ×4 (报听 dropped): 17 × 1024 = 17408 each."""
    g = game({0: "x3", 1: PAIRS_WAIT}, stock="d2 d1")  # d2: even, no 神腰 under the odd 神
    discard(g, 0, "x3")
    answer(g, p1=find(g, 1, "win", "x3"))
    assert g.result.payments == (-17408, 34816, -17408)
    assert {p.name for p in g.result.wins[0].score.patterns} == {"hei_dui_zi_hu", "xiao_zi_hu", "di_hu"}


@pytest.mark.rule("WH-35", "WH-38")
def test_wh_35_no_di_hu_on_a_later_discard_but_bao_ting():
    """The same P1 wins on P0's x6 turned up (not discarded) later: no 地胡; 报听 ×4 instead (no group made):
    17 × 256 × 4 = 17408."""
    g = game({0: "d7", 1: PAIRS_WAIT}, stock="d2 d1 x6 d4")
    discard(g, 0, "d7")
    for _ in range(3):  # P0's d7, P1's d2, P2's d1
        pass_all(g)
    assert g.current.tile == card("x6") and g.current.source == 0
    answer(g, p1=find(g, 1, "win", "x6"))
    assert g.result.payments == (-17408, 34816, -17408)
    assert {p.name for p in g.result.wins[0].score.patterns} == {"hei_dui_zi_hu", "xiao_zi_hu", "bao_ting"}
