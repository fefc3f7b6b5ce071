"""Simple seeded policies: :class:`RandomBot` and :class:`GreedyBot` (shanten-driven).

A bot's :meth:`act` gets an :class:`~hupai.observation.Observation`, what its seat may see, and returns one
of ``observation.legal_actions``. It is given nothing else: no game, no table, so it cannot read another
seat's tiles. :func:`hupai.game.play` (and :class:`hupai.Match`) drive a game with bots.
Bots keep their own ``random.Random`` (Mersenne Twister seeded by an int: stable across Python versions).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from . import rules as rules_module
from .actions import Action
from .analysis import Forms
from .observation import Observation
from .rules.base_advice import Advice
from .zipai import NUM_KINDS as ZIPAI_KINDS
from .zipai import RUNS, Declared, best_split_batch

__all__ = ["RandomBot", "GreedyBot"]

_KIND = attrgetter("kind")


def _observed(game: Any, seat: int) -> Observation:
    """The deprecated call ``bot.act(game, seat)``: the seat's observation, built here."""
    warnings.warn("bot.act(game, seat) is deprecated: pass game.observation(seat)", DeprecationWarning,
                  stacklevel=3)
    built: Observation = game.observation(seat)
    return built


class RandomBot:
    """Uniform over the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Observation, seat: int | None = None) -> Action:
        """One of ``observation.legal_actions`` at random. (``act(game, seat)`` is deprecated.)"""
        if seat is not None:
            observation = _observed(observation, seat)
        return self.choose(observation.legal_actions)

    def choose(self, legal_actions: Sequence[Action]) -> Action:
        """The same decision from the legal actions alone (:func:`hupai.game.play` asks this first: the rest of
        an observation would cost more to build than this bot's decision)."""
        return legal_actions[int(self._rng.random() * len(legal_actions))]  # uniform; cheaper than randrange


class GreedyBot:
    """Wins when it can; claims when that lowers its shanten; discards to minimise shanten, then to maximise
    the number of tiles (counting unseen copies of its own hand) that would lower it. Ties break at
    random.

    How a hand is counted and when a declaration beats a plain win is the rule system's advice
    (:func:`hupai.rules.advice`, found by the observation's rules name): golds as jokers, discards into
    Yunxiao's 游 shape before a self-drawn win, a discard win let pass by a gold holder. A declaration before
    the draw (游金, 抢金) is always taken. ``forms`` replaces the advice by plain tiles judged in those forms.
    """

    def __init__(self, seed: int = 0, forms: Forms | int | None = None) -> None:
        self._rng = random.Random(seed)
        self._forms = forms
        self._advice: dict[str, Advice] = {}  # by rules name: the registry's answer, looked up once

    def _advice_for(self, name: str) -> Advice:
        advice = self._advice.get(name)
        if advice is None:
            advice = self._advice[name] = (rules_module.advice(name) if self._forms is None
                                           else Advice(self._forms))
        return advice

    def choose(self, legal_actions: Sequence[Action]) -> Action | None:
        """A lone ``pass`` (a claim window with nothing to claim) needs no observation; anything else does
        (None). What :meth:`act` would answer, asked first by :func:`hupai.game.play`."""
        if len(legal_actions) == 1 and legal_actions[0].kind == "pass":
            return legal_actions[0]
        return None

    def act(self, observation: Observation, seat: int | None = None) -> Action:
        """The greedy choice among ``observation.legal_actions``. (``act(game, seat)`` is deprecated.)"""
        if seat is not None:
            observation = _observed(observation, seat)
        if len(observation.counts) == ZIPAI_KINDS:  # a zipai (Wai Huzi) seat: 20 card kinds, not 34 tiles
            return _zipai_act(observation, self._rng)
        legal = observation.legal_actions
        phase = observation.phase
        if phase == "predraw":
            return legal[0]  # declarations (游金, 抢金: wins) come before ``pass``
        advice = self._advice.get(observation.rules) or self._advice_for(observation.rules)
        claiming = phase == "claim" or phase == "rob"
        kinds = list(map(_KIND, legal))  # a C-level loop: this runs at every decision
        premium: tuple[int, ...] | None = None
        if "win" in kinds and not (claiming and advice.prefers_own_draw(observation)):
            win = legal[kinds.index("win")]
            if claiming:
                return win
            premium = advice.premium_discards(observation)
            if not premium:
                return win
        if claiming:
            return self._claim(legal, advice, observation)
        # Most turns offer plain discards alone: then they are the legal actions as they stand. A discard with a
        # declaration (亮倒) is the advice's to choose, once the discard is chosen.
        discards = (legal if kinds.count("discard") == len(kinds) and not legal[-1].flag
                    else [a for a in legal if a.kind == "discard" and not a.flag])
        if not discards:  # only declarations or kongs are on offer
            return legal[0]
        if premium is None:
            premium = advice.premium_discards(observation)
        if premium:
            chosen = [a for kind in premium for a in discards if a.tile == kind]
            if chosen:
                return chosen[0]
        scores = advice.rank_discards(observation, discards)
        # The best at random among the tied: the pick-th of them, found without listing them all.
        best = max(scores)
        pick = int(self._rng.random() * scores.count(best))
        index = scores.index(best)
        for _ in range(pick):
            index = scores.index(best, index + 1)
        return advice.declare(observation, discards[index]) if len(discards) < len(legal) else discards[index]

    def _claim(self, legal: tuple[Action, ...], advice: Advice, observation: Observation) -> Action:
        claims = [a for a in legal if a.kind in ("pung", "chow", "kong")]
        passing = next(a for a in legal if a.kind == "pass")
        if not claims:
            return passing
        # Row 0: the hand now; row i: the hand after claim i (the tiles it takes out), built as bytes.
        rows = bytearray(observation.counts) * (1 + len(claims))
        for row, action in enumerate(claims, 1):
            base = 34 * row
            if action.kind == "chow":
                for kind in action.tiles:
                    if kind != action.tile:
                        rows[base + kind] -= 1
            else:
                rows[base + action.tile] -= 3 if action.kind == "kong" else 2
        melds = len(observation.melds[observation.seat])
        meld_counts = np.array([melds] + [melds + 1] * len(claims), dtype=np.int32)
        shanten = advice.shanten(observation, np.frombuffer(rows, dtype=np.uint8).reshape(-1, 34),
                                 meld_counts).tolist()
        after = shanten[1:]
        best = min(after)
        return claims[after.index(best)] if best < shanten[0] else passing


# -- Wai Huzi (zipai) --------------------------------------------------------------------------------------------

_GROUP_FACTORIES = {"wai": Declared.wai, "peng": Declared.peng, "liu": Declared.liu, "piao": Declared.piao}
_GROUP_SIZES = {"wai": 3, "liu": 4}  # a 歪 or 溜 shows one card up (WH-9); it holds three or four


def _zipai_act(observation: Observation, rng: random.Random) -> Action:
    """GreedyBot in Wai Huzi: win when it can; take 溜, 飘 and 歪 (never a 碰/歪 that would make it 死手, WH-27),
    a 碰 of a pair and a 吃 whose 门子 cards are loose; discard the card that keeps the best waits (the core's
    layouts, weighted by unseen copies and score), else the best-shaped hand."""
    legal = observation.legal_actions
    kinds = [a.kind for a in legal]
    if "win" in kinds:
        return legal[kinds.index("win")]
    counts = observation.counts
    peng_ban = set(observation.private.get("peng_ban", ()))
    for action in legal:  # 溜/飘 (turn or offer), a safe 歪
        if action.kind in ("liu", "piao") or (action.kind == "wai" and action.tile not in peng_ban):
            return action
    if observation.phase == "claim":
        for action in legal:
            if action.kind == "pung" and action.tile not in peng_ban and counts[action.tile] == 2:
                return action
        for action in legal:
            if action.kind == "chow" and all(counts[c] == 1 for c in action.tiles if c != action.tile):
                return action
        return legal[kinds.index("pass")]
    discards = [a for a in legal if a.kind == "discard"]
    if len(discards) == 1:
        return discards[0]
    values = _zipai_discard_values(observation, [a.tile for a in discards])
    best = max(values)
    tied = [a for a, v in zip(discards, values, strict=True) if v == best]
    return tied[int(rng.random() * len(tied))]


def _zipai_discard_values(observation: Observation, cards: list[int]) -> list[tuple[int, int]]:
    """Per candidate discard: (the waits' worth after it, the shape of the hand left)."""
    seat = observation.seat
    groups = []
    for meld in observation.melds[seat]:
        if meld.type == "chi":
            groups.append(Declared.chi(meld.tiles, meld.claimed_tile, own_draw=meld.claimed_from < 0))
        else:
            groups.append(_GROUP_FACTORIES[meld.type](meld.tiles[0]))
    seen = bytearray(observation.counts)  # copies this seat knows are gone: its hand, every group, every pile
    for melds in observation.melds:
        for meld in melds:
            if meld.type in _GROUP_SIZES:
                seen[meld.tiles[0]] += _GROUP_SIZES[meld.type]
            else:
                for card in meld.tiles:
                    seen[card] += 1
    for pile in observation.discards:
        for card in pile:
            seen[card] += 1
    own = list(observation.counts)  # this seat's copies of each card, hand and groups
    for group in groups:
        for card in group.cards:
            own[card] += 1
    pairs = [(index, win) for index, card in enumerate(cards) for win in range(ZIPAI_KINDS)
             if own[win] - (win == card) < 4]  # a fifth copy cannot come
    rows = np.frombuffer(bytes(observation.counts) * len(pairs), dtype=np.uint8).reshape(-1, ZIPAI_KINDS).copy()
    for row, (index, _) in enumerate(pairs):
        rows[row, cards[index]] -= 1
    wins = np.array([win for _, win in pairs], dtype=np.int8)
    result = best_split_batch(rows, wins, source="other", groups=groups,
                              min_huxi=int(observation.options.get("min_huxi", 5)))
    worth = [0] * len(cards)
    for (index, win), score in zip(pairs, result.score.tolist(), strict=True):
        if score > 0:
            worth[index] += score * max(0, 4 - seen[win])
    out = []
    for index, card in enumerate(cards):
        left = bytearray(observation.counts)
        left[card] -= 1
        out.append((worth[index], _zipai_shape(left)))
    return out


def _zipai_shape(counts: bytearray) -> int:
    """A quick worth of a hand's shape: 坎 and pairs (息 and 碰/歪 to come), whole and partial runs."""
    worth = 0
    for count in counts:
        worth += 9 if count >= 3 else 4 if count == 2 else 0
    for low, mid, high in RUNS:
        present = (counts[low] > 0) + (counts[mid] > 0) + (counts[high] > 0)
        worth += 5 if present == 3 else 2 if present == 2 else 0
    return worth
