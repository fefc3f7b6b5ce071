"""Helpers for the Wai Huzi flow tests: stacked deals and stock, scripted answers, invariants."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hupai.actions import Action
from hupai.game import Game
from hupai.game.zipai import deal_order, stacked_cards
from hupai.zipai import ALL_CARDS, parse

SIZES = {0: 20, 1: 19, 2: 19}  # by place from the dealer


def cards(text: str) -> list[int]:
    return parse(text) if text else []


def stacked(hands: dict[int, str], stock: str = "", dealer: int = 0) -> list[int]:
    """A wall dealing each seat its given cards topped up with fillers (one copy of a kind the seat does not hold
    yet, so fillers make few pairs), and turning up ``stock`` first. A dealer's given cards come last in its
    deal when it is full (its last card is the one shown for 神)."""
    given = {seat: cards(hands.get(seat, "")) for seat in range(3)}
    stock_cards = cards(stock)
    pool = Counter(ALL_CARDS)
    pool.subtract(Counter([c for h in given.values() for c in h]) + Counter(stock_cards))
    assert min(pool.values()) >= 0, "more than four copies of a card"
    full: dict[int, list[int]] = {}
    for place, seat in enumerate(deal_order(dealer)):
        hand = list(given[seat])
        need = SIZES[place] - len(hand)
        fillers: list[int] = []
        kind = (7 * seat + 3) % 20
        while len(fillers) < need:
            for _ in range(20):
                kind = (kind + 1) % 20
                if pool[kind] and kind not in hand and kind not in fillers:
                    break
            else:
                kind = next(k for k in range(20) if pool[k])
            pool[kind] -= 1
            fillers.append(kind)
        full[seat] = fillers + hand
    return stacked_cards([full[s] for s in range(3)], stock_cards, dealer)


def game(hands: dict[int, str], stock: str = "", dealer: int = 0, window: str = "all", **options: Any) -> Game:
    options.setdefault("shen", "odd")
    return Game("waihuzi", seed=1, dealer=dealer, wall=stacked(hands, stock, dealer), claim_window=window,
                options=options)


def find(game: Game, seat: int, kind: str, card: str | int = -1, run: str = "") -> Action:
    tile = card if isinstance(card, int) else parse(card)[0]
    tiles = tuple(sorted(parse(run))) if run else None
    for action in game.legal_actions(seat):
        if action.kind == kind and (tile < 0 or action.tile == tile) and (tiles is None or action.tiles == tiles):
            return action
    raise AssertionError(f"no {kind} {card} {run} for P{seat}: {game.legal_actions(seat)}")


def has(game: Game, seat: int, kind: str, card: str | int = -1, run: str = "") -> bool:
    try:
        find(game, seat, kind, card, run)
    except AssertionError:
        return False
    return True


def answer(game: Game, **chosen: Action) -> None:
    """Answer the open offer: the given seats' actions (keyword ``p1=...``), every other asked seat passes."""
    assert game.current.phase == "claim", game.current
    by_seat = {int(name[1:]): action for name, action in chosen.items()}
    for seat in game.current.seats:
        game.apply(by_seat.get(seat, Action("pass", seat)))


def pass_all(game: Game) -> None:
    answer(game)


def discard(game: Game, seat: int, card: str) -> None:
    game.apply(find(game, seat, "discard", card))


def check_invariants(game: Game) -> None:
    """80 cards in their places, four of each (WH-1), and WH-11's at-rest counts."""
    table: Any = game.table
    where = [0] * 20
    for card in table.wall.tiles[table.wall.head:]:
        where[card] += 1
    for seat in range(3):
        for card, count in enumerate(table.hands[seat]):
            where[card] += count
        for group in table.groups[seat]:
            for card in group.cards:
                where[card] += 1
        for card in table.discards[seat]:
            where[card] += 1
    if table.phase == "claim" or (table.phase == "over" and table.offer >= 0):
        where[table.offer] += 1
    assert where == [4] * 20
    if table.phase != "over":
        for seat in range(3):
            extra = 1 if table.phase == "turn" and seat == table.turn_seat else 0
            assert table.cards_held(seat) == table.at_rest(seat) + extra, (seat, table.phase)
