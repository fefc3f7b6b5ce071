"""Guangdong special wins detected by the flow: 天和/人和/地和 (GD-21, GD-E16), 海底捞月 (GD-20), and the
包自摸 liability rules read from the table's history (GD-25, GD-28, GD-29 包先不包后, GD-E14)."""

from hupai.game import Action
from hupai.game.scripted import answer, discard, discard_drawn, stacked_game
from hupai.game.state.table import Table
from hupai.game.state.wall import Wall
from hupai.hand import Meld
from hupai.rules import get
from hupai.tiles import parse


def T(text: str) -> int:
    return parse(text)[0]


def test_gd_21_e16_heavenly_win():
    """GD-21 天和 / GD-E16: the dealer's dealt 14 tiles win: 6 番, 64 from each."""
    game = stacked_game(["123m456p789s111z55s", "", "", ""])
    assert game.legal_actions(0)[0] == Action("win", 0, T("5s"))
    game.apply(game.legal_actions(0)[0])
    win = game.result.wins[0]
    assert win.source == "dealt" and win.context.heavenly
    assert game.result.payments == (192, -64, -64, -64)


def test_gd_21_e16_human_win():
    """GD-21 人和 / GD-E16: P2 wins on the dealer's first discard: P2 +64, P0 −64."""
    game = stacked_game(["5s2z3z4z5z6z7z1p9p1m9m7s8s9s", "", "123m456p789s111z5s", ""])
    discard(game, "5s", then_pass=False)
    answer(game, P2=Action("win", 2, T("5s")))
    assert game.result.wins[0].context.human
    assert game.result.payments == (-64, 0, 64, 0)


def test_gd_21_e16_earthly_win():
    """GD-21 地和 / GD-E16: P3 self-draws on its first draw, nobody having claimed: P3 +192."""
    game = stacked_game(["9m2z3z4z5z6z7z1p9p1m8m7s8s9s", "", "", "123m456p789s111z5s"], draws="4z4z5s")
    discard(game, "9m")
    discard_drawn(game, 2)
    game.apply(Action("win", 3, T("5s")))
    assert game.result.wins[0].context.earthly
    assert game.result.payments == (-64, -64, -64, 192)


def test_gd_21_no_earthly_win_after_a_claim():
    """GD-21 地和 needs no 吃/碰/杠 before it: after P2's pung, P3's first-draw win is a plain 自摸."""
    game = stacked_game(["9m2z3z4z5z6z7z1p9p1m8m7s8s9s", "", "99m4z", "123m456p789s111z5s"], draws="5s")
    discard(game, "9m", then_pass=False)
    answer(game, P2=Action("pung", 2, T("9m")))
    discard(game, "4z")
    game.apply(Action("win", 3, T("5s")))
    assert not game.result.wins[0].context.earthly


def test_gd_20_last_tile_self_draw_is_raised_to_the_limit():
    """GD-20 海底捞月 (with GD-8's wall_reserve): the last drawable tile self-drawn: 鸡胡 + 自摸 → 3 番."""
    game = stacked_game(["9m2z3z4z5z6z7z1p9p1m8m7s8s9s", "", "", "123m456p789s11z23s"],
                        draws="4z4z4z5z5z5z4s",
                        options={"wall_reserve": 76})
    discard(game, "9m")
    discard_drawn(game, 6)  # P1 P2 P3 P0 P1 P2: P3's second draw is the last one
    assert not game.rules.can_draw(game.table)
    game.apply(Action("win", 3, T("4s")))
    win = game.result.wins[0]
    assert win.context.last_tile and win.score.value == 3
    assert game.result.payments == (-8, -8, -8, 24)


def _table(melds: dict[int, list[Meld]], order: list[tuple[int, int]]) -> Table:
    table = Table(4, 0, 0, 0, (0, 1, 2, 3), Wall([]))
    table.set_melds([melds.get(seat, []) for seat in range(4)])
    table.meld_order = order
    return table


def pung(tile: str, source: int | None) -> Meld:
    kind = T(tile)
    return Meld("pung", (kind,) * 3, claimed_from=source, claimed_tile=kind)


RULES = get("guangdong")


def test_gd_29_e14_twelve_tiles_down_makes_the_feeder_liable():
    """GD-29 / GD-E14: P1's fourth meld [333m] came from P3's discard, so P3 pays P1's self-draw."""
    table = _table({1: [pung("2m", 0), pung("5p", 2), pung("8s", 0), pung("3m", 3)]},
                   [(1, 0), (1, 1), (1, 2), (1, 3)])
    assert RULES.liable(table, 1, "wall") == 3


def test_gd_29_liable_for_the_first_player_only():
    """GD-29 包先不包后: P3 fed P1's fourth meld first, then P2's; P3 is liable for P1 only."""
    melds = {1: [pung("2m", 0), pung("5p", 2), pung("8s", 0), pung("3m", 3)],
             2: [pung("1m", 0), pung("4p", 1), pung("7s", 0), pung("9s", 3)]}
    order = [(1, 0), (2, 0), (1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3)]
    table = _table(melds, order)
    assert RULES.liable(table, 1, "wall") == 3
    assert RULES.liable(table, 2, "wall") is None
    order = [(1, 0), (2, 0), (1, 1), (2, 1), (1, 2), (2, 2), (2, 3), (1, 3)]
    table = _table(melds, order)
    assert RULES.liable(table, 2, "wall") == 3 and RULES.liable(table, 1, "wall") is None


def test_gd_28_fourth_wind_and_third_dragon_liability():
    """GD-28: the discarder of the fourth wind pung (case 1) or the third dragon pung (case 2) is liable."""
    winds = _table({1: [pung("1z", 2), pung("2z", None), pung("3z", 2), pung("4z", 0)]},
                   [(1, 0), (1, 1), (1, 2), (1, 3)])
    assert RULES.liable(winds, 1, "wall") == 0
    dragons = _table({1: [pung("5z", 0), pung("6z", 3), pung("7z", 2)]}, [(1, 0), (1, 1), (1, 2)])
    assert RULES.liable(dragons, 1, "wall") == 2
    concealed = _table({1: [pung("5z", 0), pung("6z", 3), Meld("kong", (T("7z"),) * 4, concealed=True)]},
                       [(1, 0), (1, 1), (1, 2)])
    assert RULES.liable(concealed, 1, "wall") is None


def test_gd_25_first_listed_case_decides():
    """GD-25: a replacement win after a kong on P0's discard: GD-26 (P0) before GD-28/29 (P3)."""
    table = _table({1: [pung("2m", 0), pung("5p", 2), pung("8s", 0), pung("3m", 3)]},
                   [(1, 0), (1, 1), (1, 2), (1, 3)])
    table.kong_from = 0
    assert RULES.liable(table, 1, "replacement") == 0
    assert RULES.liable(table, 1, "wall") == 3


def test_gd_29_e14_through_the_flow():
    """GD-E14 played: P1 pungs 2m (P0), 5p and 8s (P2), then 3m from P3 as its fourth meld (十二张落地), and
    later self-draws its single wait 9p: 碰碰胡 2 + 自摸 1 = 3 → 8 × 3, all paid by P3 (GD-29)."""
    game = stacked_game(["2m1z2z3z4z5z6z7z9s9m8m4m5s6s", "22m55p88s33m9p1s4s7s2z", "5p8s", "3m"],
                        draws="7m7m6m6m1p1p1p9p")
    discard(game, "2m", then_pass=False)
    answer(game, P1=Action("pung", 1, T("2m")))
    discard(game, "1s")                              # P1; P2 draws
    discard(game, "5p", then_pass=False)
    answer(game, P1=Action("pung", 1, T("5p")))
    discard(game, "4s")
    discard(game, "8s", then_pass=False)
    answer(game, P1=Action("pung", 1, T("8s")))
    discard(game, "7s")
    discard_drawn(game)                              # P2; P3 draws
    discard(game, "3m", then_pass=False)
    answer(game, P1=Action("pung", 1, T("3m")))
    discard(game, "2z")                              # P1 now holds 9p alone
    discard_drawn(game, 3)                           # P2, P3, P0
    assert game.current == ("turn", (1,), T("9p"), 1)
    game.apply(Action("win", 1, T("9p")))
    win = game.result.wins[0]
    assert win.context.liable == 3
    assert game.result.payments == (0, 24, 0, -24)
