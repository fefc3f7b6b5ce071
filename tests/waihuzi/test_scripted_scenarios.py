"""Issue 23 (API): Wai Huzi scenarios scripted as easily as ``stacked_game`` scripts mahjong ones
(``hupai.game.scripted``: the deal, the stock order, the 海底 card and who turns it up, the 神)."""

from __future__ import annotations

from collections import Counter

import pytest
from hupai import HupaiError
from hupai.game import Game
from hupai.game.scripted import (
    discard_card,
    pass_offer,
    stacked_zipai_game,
    to_haidi,
    turn_up,
    zipai_wall,
)
from hupai.game.zipai.flow import deal_order
from hupai.zipai import ALL_CARDS, parse

from .flow_helpers import check_invariants


def _deals(wall: list[int], dealer: int) -> dict[int, list[int]]:
    out, start = {}, 0
    for seat, size in zip(deal_order(dealer), (20, 19, 19), strict=True):
        out[seat] = wall[start:start + size]
        start += size
    return out


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_the_wall_deals_the_given_cards_last_and_stacks_the_stock(dealer: int) -> None:
    hands = {0: "x1 x1 x1 d2", 1: "d10 d10", 2: "x5"}
    wall = zipai_wall(hands, stock="x7 d3", dealer=dealer, haidi="d9")
    assert sorted(wall) == sorted(ALL_CARDS)
    deals = _deals(wall, dealer)
    for seat, text in hands.items():
        given = parse(text)
        assert deals[seat][-len(given):] == given
        fillers = deals[seat][:-len(given)]
        assert len(set(fillers)) == len(fillers) and not set(fillers) & set(given)  # few pairs: one of a kind
    assert wall[58:60] == parse("x7 d3") and wall[-1] == parse("d9")[0]


def test_hands_as_a_list_and_a_mapping_give_the_same_wall() -> None:
    assert zipai_wall(["x1 x2", "", "d5"], "x3") == zipai_wall({0: "x1 x2", 2: "d5"}, "x3")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": {0: "x1 x1 x1", 1: "x1 x1"}}, "more than four of x1"),
    ({"hands": {0: "x1"}, "stock": "x1 x1 x1 x1"}, "more than four of x1"),
    ({"hands": {3: "x1"}}, "seats are 0, 1 and 2"),
    ({"hands": {1: " ".join(["x1 x2 x3 x4 x5"] * 4)}}, "seat 1 is dealt 19 cards, given 20"),
    ({"haidi": "x1 x2"}, "haidi is one card"),
    ({"stock": " ".join(f"x{n} d{n}" for n in range(1, 11)) + " x1 x2 x3"}, "the stock holds 22 cards, given 23"),
    ({"hands": {0: "5m"}}, "no size letter"),
])
def test_impossible_scenarios_are_refused_saying_why(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(HupaiError, match=message):
        zipai_wall(**kwargs)  # type: ignore[arg-type]


def test_the_game_is_an_ordinary_game_that_replays() -> None:
    game = stacked_zipai_game({0: "x1 x1 x1 x2"}, stock="x1")
    discard_card(game, "x2")
    assert [a.kind for a in game.legal_actions(0)] == ["piao", "pung", "pass"]
    check_invariants(game)
    assert Game.replay(game.to_json()).to_json() == game.to_json()
    assert game.rules.options_dict()["shen"] == "odd" and game.claim_window == "eligible"


def test_options_and_the_claim_window_are_passed_on() -> None:
    game = stacked_zipai_game({}, options={"min_huxi": 10}, claim_window="all", shen="even")
    assert game.rules.options_dict()["min_huxi"] == 10 and game.rules.options_dict()["shen"] == "even"
    assert game.claim_window == "all"


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_wh_46_to_haidi_names_who_turns_up_the_last_card(dealer: int) -> None:
    """With every card passed, the dealer's 下家 turns up the 海底 card (the stock's last); passing it too is 黄庄
    and that seat deals next (WH-46)."""
    game = stacked_zipai_game({}, haidi="d10", dealer=dealer)
    discard_card(game, game_card(game, dealer))
    seat = to_haidi(game)
    assert seat == (dealer + 1) % 3 and game.current.phase == "claim" and game.current.tile == parse("d10")[0]
    assert game.table.wall.live == 0
    check_invariants(game)
    pass_offer(game)
    assert game.over and game.result is not None and game.result.drawn and game.result.next_dealer == seat


def game_card(game: Game, seat: int, avoid: str = "") -> str:
    """A card ``seat`` may discard now (none of ``avoid``), in notation."""
    from hupai.zipai import card_name
    skip = set(parse(avoid)) if avoid else set()
    return card_name(next(a.tile for a in game.legal_actions(seat) if a.kind == "discard" and a.tile not in skip))


def test_a_take_on_the_way_moves_who_turns_up_the_haidi() -> None:
    """A 吃 by the 下家 of the seat that turned the card up shifts the turn: the taker discards, and its 下家
    turns up next, one seat later than with every card passed."""
    game = stacked_zipai_game({2: "x2 x3"}, stock="x1", haidi="d10")
    discard_card(game, game_card(game, 0, avoid="x1 x2 x3 x4"))
    assert game.current.tile == parse("x1")[0] and game.current.source == 1  # P1 turned up x1
    chow = next(a for a in game.legal_actions(2) if a.kind == "chow")
    for seat in game.current.seats:
        game.apply(chow if seat == 2 else next(a for a in game.legal_actions(seat) if a.kind == "pass"))
    assert game.current.phase == "turn" and game.current.seats == (2,)
    discard_card(game, game_card(game, 2))
    assert to_haidi(game) == 2  # with every card passed: 1


def test_wh_5_shen_from_the_dealers_last_dealt_card() -> None:
    for card, shen in (("d2", "even"), ("d3", "odd"), ("x10", "even")):
        game = stacked_zipai_game({0: "d1"}, shen=None, shen_card=card)
        shown = [e for e in game.events if e.type == "shen"]
        assert [(e.seat, e.tile, e.info) for e in shown] == [(0, parse(card)[0], shen)]
        assert _deals(game.table.wall.tiles, 0)[0][-1] == parse(card)[0]
    with pytest.raises(HupaiError, match="give it with shen=None"):
        stacked_zipai_game({}, shen_card="d2")
    with pytest.raises(HupaiError, match="one card"):
        stacked_zipai_game({}, shen=None, shen_card="d2 d3")


def test_turn_up_passes_offered_cards_and_stops_at_a_turn() -> None:
    game = stacked_zipai_game({}, stock="x1 x2 x3")
    with pytest.raises(HupaiError, match="no card is offered: the game is in its 'turn' phase"):
        turn_up(game)
    discard_card(game, game_card(game, 0))
    turned = Counter(e.type for e in game.events)["turn_up"]
    turn_up(game, 2)
    assert Counter(e.type for e in game.events)["turn_up"] == turned + 2
