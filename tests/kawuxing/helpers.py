"""Helpers of the Kawuxing tests: scoring a hand from tile strings, scripted Kawuxing games."""

from __future__ import annotations

from typing import Any

import hupai
from hupai.actions import Action
from hupai.game import Game
from hupai.game.scripted import stacked_game
from hupai.hand import Meld
from hupai.scoring import ScoreResult, WinContext
from hupai.tiles import parse


def kind(text: str) -> int:
    (k,) = parse(text)
    return k


def pung(text: str, claimed_from: int = 2) -> Meld:
    return Meld("pung", (kind(text),) * 3, claimed_from=claimed_from, claimed_tile=kind(text))


def score(concealed: str, win: str, *, winner: int = 1, discarder: int | None = None, melds: tuple[Meld, ...] = (),
          options: dict[str, Any] | None = None, liangdao: bool = False, **facts: Any) -> ScoreResult:
    """Score ``concealed`` + ``win`` for ``winner`` (self-drawn unless ``discarder``) with ``hupai.score``."""
    rules = hupai.rules.get("kawuxing", options or {}) if options else "kawuxing"  # a name scores with defaults
    pao = facts.pop("gang_shang_pao", False)
    context = WinContext(winner=winner, win_tile=kind(win), concealed=tuple(parse(concealed)), melds=melds,
                         discarder=discarder, num_players=3, declared_ready=liangdao, discard_after_kong=pao,
                         **facts)
    return hupai.score(rules, context)


def kawuxing_game(hands: list[str], **kwargs: Any) -> Game:
    """A scripted Kawuxing hand (P0 deals unless ``dealer``)."""
    return stacked_game(hands, rules="kawuxing", **kwargs)


def legal(game: Game, seat: int) -> tuple[Action, ...]:
    return game.legal_actions(seat)


def do(game: Game, kind_: str, seat: int, tile: str = "", flag: str = "") -> None:
    """Apply the action ``kind_`` of ``seat`` on ``tile`` (with ``flag``), which must be legal."""
    action = Action(kind_, seat, kind(tile) if tile else -1, (), flag)
    assert action in game.legal_actions(seat), (action, game.legal_actions(seat))
    game.apply(action)


def discard_safe(game: Game, seat: int) -> None:
    """``seat`` (to play) discards a dragon it holds (no scripted example waits on one), else its drawn tile,
    else its first legal discard; every claim is then passed."""
    from hupai.game.scripted import pass_all

    assert game.current.seats == (seat,) and game.current.phase == "turn"
    hand = game.table.hands[seat]
    first = next(a.tile for a in game.legal_actions(seat) if a.kind == "discard")
    tile = next((k for k in (31, 32, 33) if hand[k]), game.table.drawn if game.table.drawn >= 0 else first)
    game.apply(Action("discard", seat, tile))
    pass_all(game)
