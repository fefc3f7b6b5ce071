"""Helpers for the Wai Huzi flow tests: stacked deals and stock, scripted answers, invariants."""

from __future__ import annotations

from typing import Any

from hupai.actions import Action
from hupai.game import Game
from hupai.game.scripted import zipai_wall
from hupai.game.state.zipai import mask_cards
from hupai.zipai import parse


def bits(mask: int) -> set[int]:
    """The cards of a table's card mask (``chi_ban``, ``peng_ban``, ``locked``)."""
    return set(mask_cards(mask))


def cards(text: str) -> list[int]:
    return parse(text) if text else []


def stacked(hands: dict[int, str], stock: str = "", dealer: int = 0) -> list[int]:
    """A wall dealing each seat its given cards topped up with fillers, turning up ``stock`` first
    (:func:`hupai.game.scripted.zipai_wall`)."""
    return zipai_wall(hands, stock, dealer)


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
