"""Spec audit, flow (kawuxing.md KW-6..KW-18, KW-25..KW-28): new scripted hands built from the rule text, not the
worked examples, with every payment worked out by hand in the comments. P0 deals; turns go P0, P1, P2, P0, ...;
payments are per seat, kong money included."""

from __future__ import annotations

import hupai
import pytest
from hupai.actions import Action
from hupai.game import Game
from hupai.game.scripted import answer, pass_all
from hupai.game.state.table import LOUHU_ALL
from hupai.rules.kawuxing import LIANGDAO

from .helpers import discard_safe, do, kawuxing_game, kind


def kong(seat: int, tile: str, flag: str) -> Action:
    return Action("kong", seat, kind(tile), (), flag)


def win(seat: int, tile: str) -> Action:
    return Action("win", seat, kind(tile))


def discard_drawn(game: Game) -> None:
    """The seat to play discards the tile it drew (摸切); every claim on it is passed."""
    seat = game.current.seats[0]
    game.apply(Action("discard", seat, game.table.drawn))
    pass_all(game)


# -- KW-12, KW-13: kong money along a chain ---------------------------------------------------------------
def _bu_gang_chain(p2: str) -> Game:
    """P1 pungs P0's 5p; turns later it draws the fourth 2p for its 222p, 暗杠s, and the replacement is the
    fourth 5p, for a 补杠 (the second kong of the chain)."""
    game = kawuxing_game(["5p7z", "55p222p", p2], draws="6z6z2p", replacements="5p")
    do(game, "discard", 0, "5p")
    answer(game, P1=Action("pung", 1, kind("5p")))  # P2 may hold a win on it: it passes
    discard_safe(game, 1)
    discard_safe(game, 2)
    discard_safe(game, 0)
    do(game, "kong", 1, "2p", "concealed")  # first of the chain: 2 from each
    assert game.table.payments == [-2, 4, -2]
    do(game, "kong", 1, "5p", "added")  # on the replacement: the chain goes on
    return game


@pytest.mark.rule("KW-13", "KW-12", "KW-11")
def test_kw_13_a_bu_gang_on_a_replacement_pays_double():
    # 补杠 money 1 from each, x2 as the second kong of the chain: 2 from each. Totals P0 -4, P1 +8, P2 -4.
    game = _bu_gang_chain("")
    assert game.table.payments == [-4, 8, -4]
    assert [e.tiles for e in game.events if e.type == "payment"] == [(-2, 4, -2), (-2, 4, -2)]


@pytest.mark.rule("KW-14", "KW-13", "KW-25", "KW-28")
def test_kw_14_a_robbed_chain_bu_gang_earns_nothing_and_the_robbed_player_pays():
    # P2 waits on 5p with 46p (卡五星). It passes P0's 5p (漏胡 until its draw) and robs P1's chained 补杠:
    # 抢杠胡 2 x 卡五星 2 = 4, paid by P1 alone; the robbed 补杠 pays no kong money.
    # Totals: P0 -2 (the 暗杠), P1 +4 - 4 = 0, P2 -2 + 4 = +2. The single winner deals next.
    game = _bu_gang_chain("46p123s789s345s99s")
    assert game.current.phase == "rob" and game.current.seats == (2,)
    assert game.table.payments == [-2, 4, -2]
    answer(game, P2=win(2, "5p"))
    (won,) = game.result.wins
    assert set(won.score.pattern_names) == {"qiang_gang_hu", "ka_wu_xing"} and won.discarder == 1
    assert game.result.payments == (-2, 0, 2)
    assert game.result.next_dealer == 2


@pytest.mark.rule("KW-13", "KW-12")
def test_kw_13_direct_kongs_chain_across_three_players():
    # P2 discards 3p: P1 直杠s (P2 pays 2). P1 discards its replacement 8s: P0 直杠s it, second of the chain
    # (P1 pays 4). P0 discards its replacement 9p: P2 直杠s it, third (P0 pays 8).
    # Totals: P0 +4 - 8 = -4, P1 +2 - 4 = -2, P2 -2 + 8 = +6.
    game = kawuxing_game(["888s7z", "333p", "999p3p"], draws="6z6z", replacements="8s9p6z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    discard_drawn(game)  # P1
    do(game, "discard", 2, "3p")
    answer(game, P1=kong(1, "3p", "exposed"))
    assert game.table.payments == [0, 2, -2]
    do(game, "discard", 1, "8s")
    answer(game, P0=kong(0, "8s", "exposed"))
    assert game.table.payments == [4, -2, -2]
    do(game, "discard", 0, "9p")
    answer(game, P2=kong(2, "9p", "exposed"))
    assert game.table.payments == [-4, -2, 6]


@pytest.mark.rule("KW-13", "KW-12")
def test_kw_13_a_pung_ends_the_chain():
    # P1 暗杠s 2p (+4) and discards its replacement 4s; P2 pungs it (another event: the chain ends) and discards
    # 5s; P0's 直杠 on that 5s starts a new chain: x1, P2 pays 2. Totals P0 -2 + 2 = 0, P1 +4, P2 -2 - 2 = -4.
    game = kawuxing_game(["555s7z", "222p", "44s5s"], draws="2p", replacements="4s6z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "kong", 1, "2p", "concealed")
    do(game, "discard", 1, "4s")
    answer(game, P2=Action("pung", 2, kind("4s")))
    do(game, "discard", 2, "5s")
    answer(game, P0=kong(0, "5s", "exposed"))
    assert game.table.payments == [0, 4, -4]


# -- KW-6, KW-7: a kong whose replacement is the last tile ------------------------------------------------
def _to_the_43rd_draw(hands: list[str], draw43: str, last: str, **kwargs) -> Game:
    """A hand whose 43rd wall draw (P1's) is ``draw43`` and whose last tile (the tail: the replacement of a kong
    on that draw) is ``last``; every turn before it discards what it drew and every claim is passed."""
    # Replacements come from the tail: the last tile is the first replacement, the next-to-last the second,
    # which moves to the 43rd draw.
    scripted = kawuxing_game(hands, replacements=last + draw43, **kwargs)
    tiles = list(scripted.table.wall.tiles)
    wall = scripted.table.wall
    tiles[wall.head + 42], tiles[wall.tail - 2] = tiles[wall.tail - 2], tiles[wall.head + 42]
    game = Game(scripted.rules, dealer=0, wall=tiles, claim_window="eligible")
    game.apply(Action("discard", 0, game.table.drawn))
    pass_all(game)
    while game.table.wall.live > 1:
        discard_drawn(game)
    assert game.current.seats == (1,) and game.table.drawn == kind(draw43) and game.table.wall.live == 1
    return game


@pytest.mark.rule("KW-6", "KW-7", "KW-20", "KW-12", "KW-25")
def test_kw_7_a_kong_on_the_next_to_last_tile_then_gang_shang_kai_hua_and_hai_di_lao_yue():
    # One tile left: P1 may still 暗杠 (KW-7; +2 from each). The replacement, the last tile 3p, completes
    # 12p + 3p: 杠上开花 2 x 海底捞月 2 = 4 from each. Totals P0 -6, P1 +12, P2 -6.
    game = _to_the_43rd_draw(["", "999s12p456p789p55s", ""], "9s", "3p")
    do(game, "kong", 1, "9s", "concealed")
    assert game.table.wall.live == 0 and game.table.drawn == kind("3p")
    do(game, "win", 1, "3p")
    (won,) = game.result.wins
    assert set(won.score.pattern_names) == {"gang_shang_kai_hua", "hai_di_lao_yue"}
    assert game.result.payments == (-6, 12, -6)


@pytest.mark.rule("KW-6", "KW-7", "KW-20", "KW-25")
def test_kw_6_the_last_replacement_is_discarded_and_won_on_as_gang_shang_pao():
    # P1 暗杠s on the 43rd draw (+2 from each); its replacement, the last tile 5z, does not complete its hand: it
    # must discard it (no keeping, no kong). P0 holds 5z5z but may not 碰 the final discard; P2 waits on 5z alone
    # and wins on it: 屁胡 x 杠上炮 2 = 2, P1 pays. Totals P0 -2, P1 +4 - 2 = +2, P2 -2 + 2 = 0.
    game = _to_the_43rd_draw(["5z5z", "999s12p456p789p55s", "123p456p789p123s5z"], "9s", "5z")
    do(game, "kong", 1, "9s", "concealed")
    assert game.table.wall.live == 0
    # Only the 5z may go (with or without 亮倒, which a ready hand may still declare), and no kong.
    assert {(a.kind, a.tile) for a in game.legal_actions(1)} == {("discard", kind("5z"))}
    do(game, "discard", 1, "5z")
    assert game.legal_actions(0) in ((), (Action("pass", 0),))
    answer(game, P2=win(2, "5z"))
    (won,) = game.result.wins
    assert won.score.pattern_names == ("gang_shang_pao",) and won.discarder == 1
    assert game.result.payments == (-2, 2, 0)



def _to_the_last_draw(hands: list[str], last: str) -> Game:
    """A hand played to its 44th and last wall draw (P2's), which is ``last``: every turn before it discards
    what it drew and every claim is passed."""
    game = kawuxing_game(hands, replacements=last)  # with no kong, the tail's tile is the last one drawn
    game.apply(Action("discard", 0, game.table.drawn))
    pass_all(game)
    while game.table.wall.live > 0:
        discard_drawn(game)
    assert game.current.seats == (2,) and game.table.drawn == kind(last)
    return game


@pytest.mark.rule("KW-20", "KW-25", "KW-6")
def test_kw_20_hai_di_lao_yue_on_the_last_wall_draw():
    # P2 waits on 5z alone (P1 holds the two others and never lets them go) and draws it as the last tile:
    # 屁胡 x 海底捞月 2 = 2 from each.
    game = _to_the_last_draw(["", "5z5z", "123p456p789p123s5z"], "5z")
    do(game, "win", 2, "5z")
    assert game.result.wins[0].score.pattern_names == ("hai_di_lao_yue",)
    assert game.result.payments == (-2, -2, 4)


@pytest.mark.rule("KW-6", "KW-20", "KW-25")
def test_kw_6_a_win_on_the_final_discard_is_a_plain_discard_win():
    # P2 draws the last tile, 5z, which P0 (123p 456p 789p 123s 5z) waits on: P2 must discard it, P1 may not
    # pung it (it holds 5z5z), P0 wins on it: no 海底捞月 (a discard), 屁胡 1 paid by P2.
    game = _to_the_last_draw(["123p456p789p123s5z7z", "5z5z", ""], "5z")
    assert {(a.kind, a.tile) for a in game.legal_actions(2)} == {("discard", kind("5z"))}
    do(game, "discard", 2, "5z")
    assert game.current.seats == (0,) and Action("pung", 1, kind("5z")) not in game.legal_actions(1)
    answer(game, P0=win(0, "5z"))
    assert game.result.wins[0].score.pattern_names == () and game.result.payments == (1, 0, -1)

# -- KW-10: 漏胡 ---------------------------------------------------------------------------------------------
@pytest.mark.rule("KW-10")
def test_kw_10_a_pung_does_not_end_the_block():
    # P1 (456p 789p 123s 55z 77z: waits 5z 7z) passes P2's 5z. Blocked, it is offered only the 碰 of P0's 7z
    # (no win), pungs and discards 4p (waits 4p 7p); P2's 7p then completes its hand, but it has not drawn:
    # no win. Its next draw ends the block.
    game = kawuxing_game(["9s6z7z", "456p789p123s55z77z", "5z"], draws="6z6z6z7p1s1s")
    do(game, "discard", 0, "6z")
    pass_all(game)
    discard_drawn(game)  # P1's 6z
    do(game, "discard", 2, "5z")
    assert win(1, "5z") in game.legal_actions(1)
    answer(game, P1=Action("pass", 1))
    do(game, "discard", 0, "7z")
    assert game.legal_actions(1) == (Action("pung", 1, kind("7z")), Action("pass", 1))
    answer(game, P1=Action("pung", 1, kind("7z")))
    do(game, "discard", 1, "4p")
    pass_all(game)
    do(game, "discard", 2, "7p")
    assert game.current.phase == "turn" and game.current.seats == (0,)  # nobody was asked
    discard_drawn(game)
    assert game.current.seats == (1,) and game.table.louhu[1] == 0


@pytest.mark.rule("KW-10", "KW-12")
def test_kw_10_a_kong_replacement_ends_the_block():
    # P1 (456p 789p 999s 55z 77z: waits 5z 7z) passes P2's 5z, then 直杠s P0's 9s (P0 pays 2): its replacement
    # is a draw, so it may win on P2's 7z before its next wall draw: 屁胡 1, P2 pays.
    # Totals P0 -2, P1 +3, P2 -1.
    game = kawuxing_game(["9s6z", "456p789p999s55z77z", "5z7z"], draws="6z6z6z", replacements="1s")
    do(game, "discard", 0, "6z")
    pass_all(game)
    discard_drawn(game)
    do(game, "discard", 2, "5z")
    answer(game, P1=Action("pass", 1))
    assert game.table.louhu[1] == LOUHU_ALL
    do(game, "discard", 0, "9s")
    answer(game, P1=kong(1, "9s", "exposed"))
    assert game.table.louhu[1] == 0
    do(game, "discard", 1, "1s")
    pass_all(game)
    do(game, "discard", 2, "7z")
    answer(game, P1=win(1, "7z"))
    assert game.result.payments == (-2, 3, -1)


@pytest.mark.rule("KW-10", "KW-14", "KW-12")
def test_kw_10_a_declined_rob_blocks_discard_wins():
    # P1 (45p 789p 123s 456s 55z: waits 3p 6p) passes P0's 6p, which P2 pungs; after P1's draw P2 adds the
    # fourth 6p: P1 passes the rob too (漏胡 again), so the 补杠 is made (1 from each) and P2's discard of its
    # replacement 3p, which completes P1's hand, is no win for P1.
    game = kawuxing_game(["6p7z", "45p789p123s456s55z", "66p"], draws="6z6z6p", replacements="3p")
    do(game, "discard", 0, "6p")
    answer(game, P2=Action("pung", 2, kind("6p")))
    discard_safe(game, 2)
    discard_safe(game, 0)
    discard_drawn(game)  # P1's draw ends its block
    do(game, "kong", 2, "6p", "added")
    assert game.current.phase == "rob" and game.current.seats == (1,)
    answer(game, P1=Action("pass", 1))
    assert game.table.payments == [-1, -1, 2]
    do(game, "discard", 2, "3p")
    assert game.current.phase == "turn" and game.current.seats == (0,)


# -- KW-9, KW-26, KW-28: who wins a contested tile --------------------------------------------------------
@pytest.mark.rule("KW-9", "KW-14", "KW-25")
def test_kw_9_a_win_beats_a_direct_kong_claim():
    # P2 discards 3p; P1 (333p) claims 直杠, P0 (12p ... waits 3p) claims 胡: the win stands, no kong is made,
    # no kong money; 屁胡 1 paid by P2. The dealer won: it deals again.
    game = kawuxing_game(["12p456p789p123s55s7z", "333p", "3p"], draws="6z6z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    discard_drawn(game)
    do(game, "discard", 2, "3p")
    game.apply(kong(1, "3p", "exposed"))
    game.apply(win(0, "3p"))
    assert game.result.winners == (0,) and game.result.payments == (1, 0, -1)
    assert not any(e.type == "kong" or e.type == "payment" for e in game.events)
    assert game.result.next_dealer == 0


@pytest.mark.rule("KW-9", "KW-14", "KW-26", "KW-28")
def test_kw_9_two_players_rob_one_bu_gang():
    # P0 (34p ... waits 2p 5p) and P1 (46p ...: 卡五星) both rob P2's 补杠 of 5p.
    # P0: 屁胡 x 抢杠胡 = 2; P1: 卡五星 x 抢杠胡 = 4; P2 pays both, gets no kong money; P2 deals next.
    game = kawuxing_game(["34p123s789s678s99s5p", "46p123p789p234s55z", "55p"], draws="6z6z5p")
    do(game, "discard", 0, "5p")
    answer(game, P2=Action("pung", 2, kind("5p")))  # P1 passes its win: 漏胡 until its draw
    discard_safe(game, 2)
    discard_safe(game, 0)
    discard_drawn(game)  # P1's draw ends its block
    do(game, "kong", 2, "5p", "added")
    assert set(game.current.seats) == {0, 1}
    answer(game, P0=win(0, "5p"), P1=win(1, "5p"))
    assert game.result.winners == (0, 1)
    assert [w.score.value for w in game.result.wins] == [2, 4]
    assert game.result.payments == (2, 4, -6)
    assert game.result.next_dealer == 2


# -- KW-16..KW-18: 亮倒 -------------------------------------------------------------------------------------
@pytest.mark.rule("KW-16", "KW-11")
def test_kw_16_a_wait_on_a_fifth_copy_is_not_ready():
    # P1 pungs P0's 5s holding three (it may never kong them) and keeps 5s 123p 456p 789p 1s. Discarding the 1s
    # would leave it waiting on a 5s, of which all four are its own: no tile completes it, so no 亮倒 with the
    # 1s. Discarding the 5s leaves a wait on 1s: 亮倒 is offered with it.
    game = kawuxing_game(["5s7z", "555s123p456p789p1s", ""])
    do(game, "discard", 0, "5s")
    answer(game, P1=Action("pung", 1, kind("5s")))
    assert {a.tile for a in game.legal_actions(1) if a.flag == LIANGDAO} == {kind("5s")}


@pytest.mark.rule("KW-17", "KW-12", "KW-15", "KW-16")
def test_kw_17_liangdao_direct_kong_with_unchanged_waits_and_never_a_pung():
    # P1 亮倒 with 555s 123p 456p 78p 99s (waits 6p 9p). P2's 9s: P1 holds 99s but may not 碰 (no window opens).
    # P0's 5s: 直杠 keeps the waits 6p 9p, so it is offered (no 碰); P0 pays 2, not doubled by 亮倒.
    # The replacement must be discarded as drawn.
    game = kawuxing_game(["5s7z", "555s123p456p78p99s", "9s"], draws="6z6z6z", replacements="1s")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z", LIANGDAO)
    pass_all(game)
    do(game, "discard", 2, "9s")
    assert game.current.phase == "turn" and game.current.seats == (0,)
    do(game, "discard", 0, "5s")
    assert game.legal_actions(1) == (kong(1, "5s", "exposed"), Action("pass", 1))
    answer(game, P1=kong(1, "5s", "exposed"))
    assert game.table.payments == [-2, 2, 0]
    assert game.legal_actions(1) == (Action("discard", 1, kind("1s")),)
    assert game.observation(2).to_dict()["extras"]["revealed"][1] == sorted(hupai.parse("123p456p78p99s"))


@pytest.mark.rule("KW-17", "KW-8")
@pytest.mark.parametrize("declared", [False, True])
def test_kw_17_liangdao_direct_kong_that_changes_the_waits_is_refused(declared):
    # The seed's example: 2333s 4567s 123p 99p waits 3s 9p; a 直杠 of 3s would leave 2s 4567s waiting on 3s
    # alone. Undeclared, P1 may win, kong or pung P0's 3s; 亮倒, only win.
    game = kawuxing_game(["3s7z", "23334567s123p99p", ""], draws="6z6z6z")
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z", LIANGDAO if declared else "")
    pass_all(game)
    discard_drawn(game)
    do(game, "discard", 0, "3s")
    offered = {a.kind for a in game.legal_actions(1)}
    assert offered == ({"win", "pass"} if declared else {"win", "kong", "pung", "pass"})


@pytest.mark.rule("KW-17", "KW-16", "KW-12", "KW-15")
def test_kw_17_liangdao_right_after_a_pung_then_bu_gang():
    # P1 pungs P0's 7z and declares 亮倒 with that discard (KW-16), leaving 2333s 4567s 23p (waits 1p 4p).
    # When it draws the fourth 7z it may 补杠 (always allowed) or discard the 7z, nothing else; the 补杠 pays 1
    # from each, not doubled by 亮倒.
    game = kawuxing_game(["7z6z", "77z23334567s123p", ""], draws="6z6z7z", replacements="5z")
    do(game, "discard", 0, "7z")
    answer(game, P1=Action("pung", 1, kind("7z")))
    do(game, "discard", 1, "1p", LIANGDAO)
    pass_all(game)
    assert game.observation(0).to_dict()["extras"]["revealed"][1] == sorted(hupai.parse("23334567s23p"))
    discard_drawn(game)
    discard_drawn(game)
    assert set(game.legal_actions(1)) == {kong(1, "7z", "added"), Action("discard", 1, kind("7z"))}
    do(game, "kong", 1, "7z", "added")
    assert game.table.payments == [-1, 2, -1]


def _declared_then_draws(hand: str, tile: str, **options) -> Game:
    """P1 declares 亮倒 with ``hand`` in its first turn (discarding the 6z it drew); two turns later it draws
    ``tile``."""
    game = kawuxing_game(["7z", hand, ""], draws="6z6z6z" + tile, options=options)
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "discard", 1, "6z", LIANGDAO)
    pass_all(game)
    discard_drawn(game)
    discard_drawn(game)
    assert game.current.seats == (1,) and game.table.drawn == kind(tile)
    return game


@pytest.mark.rule("KW-18", "KW-25", "KW-22")
def test_kw_18_a_liangdao_self_draw_is_paid_by_both_at_the_doubled_value():
    # P1 亮倒 with 123p 789p 234s 46s 77s and self-draws 5s: 卡五星 2 x 亮倒 2 = 4 from each.
    game = _declared_then_draws("123p789p234s46s77s", "5s")
    do(game, "win", 1, "5s")
    assert game.result.payments == (-4, 8, -4)


# -- KW-27 with KW-15: a drawn hand with a 亮倒 seat and its kong ---------------------------------------------
@pytest.mark.rule("KW-27", "KW-15", "KW-17", "KW-28")
def test_kw_27_liangdao_seat_with_a_concealed_kong_and_a_drawn_hand():
    # P1 亮倒 with 555s 123p 456p 78p 99s, 暗杠s the fourth 5s (waits unchanged; +2 from each), then nobody
    # wins. 荒庄: P1 pays 1 to each undeclared player; the kong money stands. Totals P0 -1, P1 +2, P2 -1; the
    # dealer deals again.
    game = _declared_then_draws("555s123p456p78p99s", "5s")
    do(game, "kong", 1, "5s", "concealed")
    while not game.over:
        discard_drawn(game)  # nobody takes a win: 漏胡 on passed discards, 摸切 on self-draws
    assert game.result.drawn and game.result.payments == (-1, 2, -1)
    assert game.result.next_dealer == 0


# -- options (§11): base and cap through the engine, with kong money ----------------------------------------
def _an_gang_then_kai_hua(**options) -> Game:
    """P1 暗杠s the drawn fourth 9s and wins on the replacement 3p (杠上开花)."""
    game = kawuxing_game(["7z", "999s12p456p789p55s", ""], draws="9s", replacements="3p", options=options)
    do(game, "discard", 0, "7z")
    pass_all(game)
    do(game, "kong", 1, "9s", "concealed")
    return game


@pytest.mark.rule("KW-3", "KW-12", "KW-24")
def test_kw_3_base_multiplies_kong_money_and_the_hand():
    # base 2: the 暗杠 pays 2 x 2 = 4 from each; 杠上开花 V = 2 x 2 = 4 from each. Totals P0 -8, P1 +16, P2 -8.
    game = _an_gang_then_kai_hua(base=2)
    assert game.table.payments == [-4, 8, -4]
    do(game, "win", 1, "3p")
    assert game.result.payments == (-8, 16, -8)


@pytest.mark.rule("KW-24", "KW-15")
def test_kw_24_the_cap_limits_the_hand_never_the_kong_money():
    # cap 1: the 暗杠 still pays 2 from each; 杠上开花 (2) is capped to 1 from each. Totals P0 -3, P1 +6, P2 -3.
    game = _an_gang_then_kai_hua(cap=1)
    assert game.table.payments == [-2, 4, -2]
    do(game, "win", 1, "3p")
    assert game.result.wins[0].score.details["capped"] is True
    assert game.result.payments == (-3, 6, -3)


@pytest.mark.rule("KW-3", "KW-13", "KW-12")
def test_kw_3_base_with_a_chain():
    # base 3: P1's 直杠 on P2's 3p: P2 pays 2 x 3 = 6; P0's 直杠 on P1's replacement discard, the chain's
    # second: P1 pays 6 x 2 = 12. Totals P0 +12, P1 +6 - 12 = -6, P2 -6.
    game = kawuxing_game(["888s7z", "333p", "3p"], draws="6z6z", replacements="8s6z", options={"base": 3})
    do(game, "discard", 0, "7z")
    pass_all(game)
    discard_drawn(game)
    do(game, "discard", 2, "3p")
    answer(game, P1=kong(1, "3p", "exposed"))
    do(game, "discard", 1, "8s")
    answer(game, P0=kong(0, "8s", "exposed"))
    assert game.table.payments == [12, -6, -6]


@pytest.mark.rule("KW-27", "KW-3", "KW-15")
def test_kw_27_base_scales_the_drawn_hand_payments_and_the_kong_money():
    # base 2, P1 亮倒 with a 暗杠 (2 x 2 = 4 from each), then 荒庄: P1 pays 1 x 2 to each.
    # Totals P0 -4 + 2 = -2, P1 +8 - 4 = +4, P2 -2.
    game = _declared_then_draws("555s123p456p78p99s", "5s", base=2)
    do(game, "kong", 1, "5s", "concealed")
    while not game.over:
        discard_drawn(game)
    assert game.result.drawn and game.result.payments == (-2, 4, -2)
