"""Helpers for the Yunxiao flow tests: scripted games through the table engine with a chosen gold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hupai.game import Action, Game
from hupai.game.scripted import pass_all, stacked_game
from hupai.rules.yunxiao import YunxiaoRules
from hupai.tiles import parse


def T(text: str) -> int:
    """One tile kind: ``T("5z") == 31``."""
    (kind,) = parse(text)
    return kind


def yx_game(hands: list[str], gold: str, *, draws: str = "", replacements: str = "", dealer: int = 0,
            options: Mapping[str, Any] | None = None) -> Game:
    """A Yunxiao game with the given deal, draws and kong replacements, and ``gold`` as the flipped indicator
    (the wall's last tile, YX-6: a stacked wall's first "replacement" sits there)."""
    return stacked_game(hands, dealer=dealer, draws=draws, replacements=gold + replacements,
                        rules=YunxiaoRules(options))


def kinds_of(actions: tuple[Action, ...], kind: str) -> set[int]:
    """The tiles of the legal actions of one kind."""
    return {a.tile for a in actions if a.kind == kind}


def flags(actions: tuple[Action, ...]) -> set[str]:
    return {a.flag for a in actions if a.kind == "declare"}


def decline_predraw(game: Game) -> None:
    """If the seat to play is offered a declaration before its draw, it declines (draws)."""
    if game.current.phase == "predraw":
        game.apply(Action("pass", game.current.seats[0]))


def play_discard(game: Game, tile: str | int) -> None:
    """The seat to play (declining any pre-draw declaration) discards ``tile``; all claims are passed."""
    decline_predraw(game)
    seat = game.current.seats[0]
    game.apply(Action("discard", seat, T(tile) if isinstance(tile, str) else tile))
    pass_all(game)


def discard_drawn(game: Game, turns: int = 1) -> None:
    """For ``turns`` turns the seat to play declines declarations and discards what it drew (摸切)."""
    for _ in range(turns):
        decline_predraw(game)
        seat = game.current.seats[0]
        game.apply(Action("discard", seat, game.table.drawn))
        pass_all(game)
