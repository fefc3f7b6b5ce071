"""Simple seeded policies: :class:`RandomBot` and :class:`GreedyBot` (shanten-driven).

A bot's :meth:`act` gets the game and its seat and returns one of ``game.legal_actions(seat)``. It reads
only what that seat may know: its legal actions, its own hand (``game.hand(seat)``) and the public melds.
Bots keep their own ``random.Random`` (Mersenne Twister seeded by an int: stable across Python versions).
"""

from __future__ import annotations

import random

import numpy as np

from . import _core
from .actions import Action
from .analysis import Forms
from .game.game import Game

__all__ = ["RandomBot", "GreedyBot"]


class RandomBot:
    """Uniform over the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        return legal[int(self._rng.random() * len(legal))]  # uniform; cheaper than randrange


class GreedyBot:
    """Wins when it can; claims when that lowers its shanten; discards to minimise shanten, then to maximise
    the number of tiles (counting unseen copies of its own hand) that would lower it. Ties break at
    random.

    It asks the rules object what a hand is worth where tiles are wild or declarations pay more (Yunxiao's
    golds and 游金): :meth:`~hupai.rules.Rules.shanten_batch` with the golds as jokers, a declaration before
    the draw is taken, :meth:`~hupai.rules.Rules.premium_discards` (into the 游 shape) beat a plain self-draw,
    and :meth:`~hupai.rules.Rules.prefers_own_draw` lets a discard win pass.

    With plain tiles, claims use one ``shanten_batch`` over the hand and every claim; discards use one
    ``discard_analysis`` call (shanten after each discard and how many unseen tiles would improve it).
    """

    def __init__(self, seed: int = 0, forms: Forms | int | None = None) -> None:
        self._rng = random.Random(seed)
        self._forms = forms

    def act(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        rules, table = game.rules, game.table
        phase = table.phase
        if phase == "predraw":
            return legal[0]  # declarations (游金, 抢金: wins) come before ``pass``
        wins = [a for a in legal if a.kind == "win"]
        if wins and not (phase in ("claim", "rob") and rules.prefers_own_draw(table, seat)):
            if phase in ("claim", "rob") or not rules.premium_discards(table, seat):
                return wins[0]
        forms = self._forms if self._forms is not None else rules.win_forms
        hand = np.frombuffer(bytes(game.hand(seat)), dtype=np.uint8)
        melds = len(table.melds[seat])
        if phase in ("claim", "rob"):
            return self._claim(legal, hand, melds, forms, game)
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:  # only declarations or kongs are on offer
            return legal[0]
        premium = [a for kind in rules.premium_discards(table, seat) for a in discards if a.tile == kind]
        if premium:
            return premium[0]
        if rules.wild_tiles:
            return self._discard_by_rules(discards, hand, melds, game)
        return self._discard(discards, hand, melds, forms)

    def _shanten(self, game: Game, rows: np.ndarray, melds: int | np.ndarray, forms: int) -> np.ndarray:
        if game.rules.wild_tiles:
            return game.rules.shanten_batch(game.table, rows, melds)
        return _shanten_batch(rows, melds, forms)

    def _claim(self, legal: tuple[Action, ...], hand: np.ndarray, melds: int, forms: int, game: Game) -> Action:
        claims = [a for a in legal if a.kind in ("pung", "chow", "kong")]
        passing = next(a for a in legal if a.kind == "pass")
        if not claims:
            return passing
        rows = [hand]
        for action in claims:
            after = hand.copy()
            if action.kind == "chow":
                for kind in action.tiles:
                    if kind != action.tile:
                        after[kind] -= 1
            else:
                after[action.tile] -= 3 if action.kind == "kong" else 2
            rows.append(after)
        meld_counts = np.array([melds] + [melds + 1] * len(claims), dtype=np.int32)
        shanten = self._shanten(game, np.stack(rows), meld_counts, forms)
        best = int(np.argmin(shanten[1:]))
        return claims[best] if shanten[1 + best] < shanten[0] else passing

    def _discard_by_rules(self, discards: list[Action], hand: np.ndarray, melds: int, game: Game) -> Action:
        """Minimise shanten as the rules count it (wild tiles as jokers); ties at random."""
        rows = np.repeat(hand[None, :], len(discards), axis=0)
        rows[np.arange(len(discards)), [a.tile for a in discards]] -= 1
        shanten = game.rules.shanten_batch(game.table, rows, melds).tolist()
        low = min(shanten)
        tied = [index for index, value in enumerate(shanten) if value == low]
        return discards[tied[int(self._rng.random() * len(tied))]]

    def _discard(self, discards: list[Action], hand: np.ndarray, melds: int, forms: int) -> Action:
        # One core call gives, per kind held, the shanten after discarding it and how many tiles this seat has
        # not seen in its own hand would then lower it.
        options = {kind: (-after, copies) for kind, after, _, copies in
                   _core.discard_analysis(hand, 0, melds, int(forms), _ALL_KINDS)}
        keys = [options[action.tile] for action in discards]
        best = max(keys)
        tied = [index for index, key in enumerate(keys) if key == best]
        return discards[tied[int(self._rng.random() * len(tied))]]


def _shanten_batch(rows: np.ndarray, melds: int | np.ndarray, forms: int) -> np.ndarray:
    """``hupai.shanten_batch`` without its argument checks: the rows here are built right, uint8 and
    C-ordered, and the checks would cost as much as the core's work on a dozen rows."""
    return _core.shanten_batch(rows, 0, melds, int(forms), _ALL_KINDS, 1)


_ALL_KINDS = (1 << 34) - 1
