"""Scripting a hand by hand: stacked walls and small drivers, for worked examples, tests and documentation.

>>> game = stacked_game(["123m456p789s111z55s", "", "", ""])  # 天和: the dealer's dealt hand wins
>>> [a.kind for a in game.legal_actions(0)][0]
'win'

Hands are tile strings per seat (the dealer's has 14 tiles, its last one dealt last); a hand left empty (or
short) is filled from the remaining tiles, in an order that avoids handing out pairs where it can, so filler
seats rarely have claims. ``draws`` come off the wall in order; ``replacements`` are the kong replacement
tiles.

Wai Huzi (zipai) has the same ease: :func:`stacked_zipai_game` deals each seat its given cards (topped up),
turns up ``stock`` first and keeps ``haidi`` for the 海底 (the stock's last card); ``shen`` fixes the 神 or,
left None, ``shen_card`` is the dealer's last dealt card, the one shown for it (WH-5). :func:`turn_up` and
:func:`to_haidi` pass turned-up cards until the one wanted is offered:

>>> game = stacked_zipai_game({0: "x1 x1 x1 x2"}, stock="x1", dealer=0)
>>> discard_card(game, "x2")        # the dealer's opening discard; everyone passes it
>>> [a.kind for a in game.legal_actions(0)]  # its 下家 turned up the fourth x1: the dealer may 飘 or 碰 it
['piao', 'pung', 'pass']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .. import rules as rules_module
from .. import zipai
from ..actions import Action
from ..errors import HupaiError
from ..rules.base import Rules
from ..tiles import parse
from .game import Game
from .state.wall import stacked_wall
from .zipai.flow import deal_order, stacked_cards

__all__ = ["stacked_game", "answer", "discard", "discard_drawn", "pass_all", "stacked_zipai_game", "zipai_wall",
           "discard_card", "pass_offer", "turn_up", "to_haidi"]


def stacked_game(hands: Sequence[str], *, dealer: int = 0, draws: str = "", replacements: str = "",
                 options: Mapping[str, Any] | None = None, rules: str | Rules = "guangdong",
                 round_wind: int = 0, first_dealer: int | None = None,
                 claim_window: str = "eligible") -> Game:
    """A game whose deal, draws and replacement tiles are the given ones; the rest of the rule system's tile set
    (``rules.tiles()``) fills the hands up to their size and the wall. ``claim_window`` defaults to
    ``"eligible"`` here: scripted examples answer only the claims they are about."""
    if isinstance(rules, str):
        rules = rules_module.get(rules, options)
        options = None
    n = len(hands)
    kinds = [parse(h) for h in hands]
    draw_kinds, replacement_kinds = parse(draws), parse(replacements)
    left = Counter(rules.tiles())
    left.subtract(Counter(t for hand in kinds for t in hand))
    left.subtract(Counter(draw_kinds + replacement_kinds))
    # Filler: one copy of each kind in turn (honors first, suits in steps of three) before any second copy, so
    # filler hands hold few pairs and runs and rarely have claims.
    spread = [suit * 9 + number for number in (0, 3, 6, 1, 4, 7, 2, 5, 8) for suit in range(3)]
    order = [k for k in (*range(27, 34), *spread) if left[k] > 0]
    order += sorted(k for k in left if left[k] > 0 and k not in order)
    pool = []
    while any(left[k] > 0 for k in order):
        for k in order:
            if left[k] > 0:
                pool.append(k)
                left[k] -= 1
    for seat in range(n):
        size = rules.hand_size + (seat == dealer)
        while len(kinds[seat]) < size:
            kinds[seat].append(pool.pop(0))
        if len(kinds[seat]) != size:
            raise ValueError(f"seat {seat} is dealt {len(kinds[seat])} tiles, expected {size}")
    wall = stacked_wall(kinds, dealer=dealer, draws=draw_kinds, replacements=replacement_kinds,
                        tiles=rules.tiles())
    return Game(rules, dealer=dealer, round_wind=round_wind, first_dealer=first_dealer, wall=wall,
                claim_window=claim_window)


def pass_all(game: Game) -> None:
    """Every seat still to answer a claim window passes."""
    while game.current.phase in ("claim", "rob") and game.current.seats:
        seat = game.current.seats[0]
        game.apply(Action("pass", seat))


def answer(game: Game, **answers: Action) -> None:
    """Apply the given answers (``P1=Action(...)``) in the open claim window; the other seats pass."""
    for action in answers.values():
        game.apply(action)
    pass_all(game)


def discard(game: Game, tile: str, *, then_pass: bool = True) -> None:
    """The seat whose turn it is discards ``tile``; by default everyone then passes the claim window."""
    seat = game.current.seats[0]
    game.apply(Action("discard", seat, parse(tile)[0]))
    if then_pass:
        pass_all(game)


def discard_drawn(game: Game, turns: int = 1) -> None:
    """For ``turns`` turns: the seat to play discards the tile it just drew (摸切); every claim is passed."""
    for _ in range(turns):
        seat = game.current.seats[0]
        game.apply(Action("discard", seat, game.table.drawn))
        pass_all(game)


# -- Wai Huzi (zipai) -------------------------------------------------------------------------------------------

_ZIPAI_SIZES = (20, 19, 19)  # WH-4, by place from the dealer


def _cards(text: str) -> list[int]:
    return zipai.parse(text) if text.strip() else []


def zipai_wall(hands: Mapping[int, str] | Sequence[str] = (), stock: str = "", dealer: int = 0,
               haidi: str = "") -> list[int]:
    """An 80-card Wai Huzi wall: each seat dealt its given cards (``hands``: seat -> cards, or one string per
    seat) after fillers that make its deal full (one copy of a kind the seat does not hold yet, so fillers make
    few pairs); the stock turns up ``stock`` first and ends with ``haidi`` (the 海底 card), the rest in kind
    order between. A seat's given cards come last in its deal: the dealer's last given card is the one shown
    for the 神 when no ``shen`` option fixes it (WH-5)."""
    by_seat = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    if set(by_seat) - {0, 1, 2}:
        raise HupaiError(f"Wai Huzi seats are 0, 1 and 2, got {sorted(set(by_seat) - {0, 1, 2})}")
    given = {seat: _cards(by_seat.get(seat, "")) for seat in range(3)}
    stock_cards, last = _cards(stock), _cards(haidi)
    if len(last) > 1:
        raise HupaiError(f"haidi is one card, got {haidi!r}")
    pool = Counter(zipai.ALL_CARDS)
    pool.subtract(Counter([c for cards in given.values() for c in cards]) + Counter(stock_cards + last))
    over = sorted(kind for kind, count in pool.items() if count < 0)
    if over:
        raise HupaiError(f"more than four of {zipai.format_cards(over)} in the hands, stock and haidi")
    if len(stock_cards) + len(last) > 80 - sum(_ZIPAI_SIZES):
        raise HupaiError(f"the stock holds {80 - sum(_ZIPAI_SIZES)} cards, given {len(stock_cards) + len(last)}")
    full: dict[int, list[int]] = {}
    for place, seat in enumerate(deal_order(dealer)):
        hand = given[seat]
        if len(hand) > _ZIPAI_SIZES[place]:
            raise HupaiError(f"seat {seat} is dealt {_ZIPAI_SIZES[place]} cards, given {len(hand)}")
        fillers: list[int] = []
        kind = (7 * seat + 3) % 20
        while len(fillers) < _ZIPAI_SIZES[place] - len(hand):
            for _ in range(20):
                kind = (kind + 1) % 20
                if pool[kind] and kind not in hand and kind not in fillers:
                    break
            else:
                kind = next(k for k in range(20) if pool[k])
            pool[kind] -= 1
            fillers.append(kind)
        full[seat] = fillers + hand
    return stacked_cards([full[seat] for seat in range(3)], stock_cards + sorted(pool.elements()) + last, dealer)


def stacked_zipai_game(hands: Mapping[int, str] | Sequence[str] = (), *, stock: str = "", haidi: str = "",
                       dealer: int = 0, shen: str | None = "odd", shen_card: str = "",
                       options: Mapping[str, Any] | None = None, rules: str | Rules = "waihuzi",
                       claim_window: str = "eligible", seed: int = 1) -> Game:
    """A Wai Huzi game dealt by :func:`zipai_wall` (``hands``, ``stock``, ``haidi``, ``dealer``).

    ``shen``: the session 神 (``"odd"`` 单神 or ``"even"`` 双神, the ``shen`` option), odd by default so that a
    scenario does not depend on a filler card; ``None`` lets the deal decide it (WH-5), from ``shen_card`` when
    given (it is dealt to the dealer last). ``options``: the other rule options (or a ``rules`` object, whose
    options stand). ``claim_window`` is ``"eligible"`` as for :func:`stacked_game`: only seats with an option
    are asked."""
    if shen is not None and shen_card:
        raise HupaiError("shen_card is the card shown for the 神: give it with shen=None")
    seats = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    if shen_card:
        if len(_cards(shen_card)) != 1:
            raise HupaiError(f"shen_card is one card, got {shen_card!r}")
        seats[dealer] = f"{seats.get(dealer, '')} {shen_card}"
    if isinstance(rules, str):
        rules = rules_module.get(rules, {**(options or {}), "shen": shen})
    return Game(rules, seed=seed, dealer=dealer, wall=zipai_wall(seats, stock, dealer, haidi),
                claim_window=claim_window)


def discard_card(game: Game, card: str, *, then_pass: bool = True) -> None:
    """The Wai Huzi seat in a discard state discards ``card`` (notation, ``"x2"``); by default every seat then
    passes it."""
    seat = game.current.seats[0]
    game.apply(Action("discard", seat, zipai.parse(card)[0]))
    if then_pass and game.current.phase == "claim":
        pass_offer(game)


def pass_offer(game: Game) -> None:
    """Every seat asked about the card offered now passes it (this offer only: the next turned-up card is
    offered in turn, where :func:`pass_all` would pass it too)."""
    if game.current.phase != "claim":
        raise HupaiError(f"no card is offered: the game is in its {game.current.phase!r} phase")
    for seat in game.current.seats:  # the seats asked, fixed before the first answer
        game.apply(Action("pass", seat))


def turn_up(game: Game, count: int = 1) -> None:
    """Pass ``count`` offered cards (every asked seat passes each): with nobody taking a card, the next seat
    turns up the next stock card. Raises HupaiError when a seat must discard or the hand ends first."""
    for _ in range(count):
        pass_offer(game)


def to_haidi(game: Game) -> int:
    """Pass every offered card until the 海底 card (the stock's last) is turned up, and return the seat that
    turned it up; the offer of it stays open. With nobody taking a card, the seat after the one that discarded
    or turned up the last card turns up the next, so after the dealer's opening discard the 22 stock cards go to
    its 下家, the third seat, the dealer, ... and the 下家 turns up the 海底. A seat that takes a card (吃, 碰, 歪)
    discards and its 下家 turns up next: a take by another seat than the card's shifts who turns up the 海底.
    Raises HupaiError when a seat must discard, or the hand ends, first."""
    table: Any = game.table
    while not (table.phase == "claim" and table.offer_kind == "draw" and table.wall.live == 0):
        turn_up(game)
        table = game.table
    seat: int = table.offer_from
    return seat
