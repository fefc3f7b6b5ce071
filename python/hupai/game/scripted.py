"""Scripting a hand by hand: stacked walls and small drivers, for worked examples, tests and documentation.

>>> game = stacked_game(["123m456p789s111z55s", "", "", ""])  # 天和: the dealer's dealt hand wins
>>> [a.kind for a in game.legal_actions(0)][0]
'win'

Hands are tile strings per seat (the dealer's has 14 tiles, its last one dealt last); a hand left empty (or
short) is filled from the remaining tiles, in an order that avoids handing out pairs where it can, so filler
seats rarely have claims. ``draws`` come off the wall in order; ``replacements`` are the kong replacement
tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .. import rules as rules_module
from ..actions import Action
from ..rules.base import Rules
from ..tiles import parse
from .game import Game
from .wall import stacked_wall

__all__ = ["stacked_game", "answer", "discard", "discard_drawn", "pass_all"]


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
