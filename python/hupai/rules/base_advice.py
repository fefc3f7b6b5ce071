"""Playing advice for shanten-driven players (:class:`hupai.bots.GreedyBot`), beside each rule system.

Advice answers a player's questions from what that player sees, an :class:`~hupai.observation.Observation`,
and nothing else: how the rule system counts a hand (wild tiles as jokers), which discards are worth more
than winning at once (Yunxiao's 游 shape), whether to let a discard win pass in hope of a better self-draw.
It is not a rule: the engine never asks it, and a rule system without advice is played with these plain-tile
defaults. ``hupai.rules.advice(name)`` finds a system's advice (``rules/<system>/advice.py``, its
``ADVICE``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from ..analysis import Forms

if TYPE_CHECKING:  # pragma: no cover
    from ..actions import Action
    from ..observation import Observation

__all__ = ["Advice", "ANY_KIND", "PLAIN"]

_TILE = attrgetter("tile")

_HONORS = 27  # the first honor kind (东)

#: The core's ``joker_kinds`` mask: a joker may stand for any kind.
ANY_KIND = (1 << 34) - 1


class Advice:
    """Plain tiles: a hand is what the core counts in :attr:`forms`; no declaration beats a win.

    A rule system with other needs subclasses it (see :mod:`hupai.rules.yunxiao.advice`).
    """

    #: :class:`hupai.search.SearchBot`'s settings in this rule system where the bot is not given them (``margin``,
    #: ``worlds``, ``decisions``, ``danger``), declared only where the measurements in ``docs/bots.md`` found the
    #: setting at least as good as :data:`hupai.search.DEFAULTS`; none by default.
    search: Mapping[str, Any] = MappingProxyType({})
    #: Whether :class:`hupai.ev.EVBot` counts a discard's improving copies on the tiles its seat has not seen
    #: anywhere (its hand, every discard pile and meld) rather than on its hand alone, as the core's ranking does
    #: (GreedyBot's). Off by default: a rule system turns it on where it was measured to pay.
    ranks_live_copies = False
    #: With ``ranks_live_copies``, how much more an improving copy counts short of ready when the hand could take
    #: it by a claim: (a pung on any other seat's discard, a chow on the seat before's). None more by default.
    claim_access = (0.0, 0.0)

    def __init__(self, forms: Forms | int) -> None:
        #: The winning forms a hand is judged in (the rule system's ``win_forms``).
        self.forms = Forms(forms)
        self._forms = int(forms)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.forms!r})"

    def shanten(self, observation: Observation, rows: np.ndarray, melds: int | np.ndarray) -> np.ndarray:
        """Shanten of ``uint8[N, 34]`` hands (C-ordered, as the seat's own hand after some change) with
        ``melds`` exposed melds (one count, or one per row), as the rules count them."""
        # The core directly: the rows are built right, and hupai.shanten_batch's checks would cost as much as
        # the core's work on a dozen rows.
        return _core.shanten_batch(rows, 0, melds, self._forms, ANY_KIND, 1)

    def discard_shanten(self, observation: Observation, melds: int) -> Sequence[int] | None:
        """34 values: per kind the seat holds, what :meth:`shanten` counts for its hand (``observation.counts``, a
        complete-size hand) less one of that kind, with ``melds`` exposed melds; 127 for a kind not held. One core
        call, where the rule system has one; None (the default): ask :meth:`shanten` with a row per discard."""
        return None

    def rank_discards(self, observation: Observation, discards: Sequence[Action]) -> list[int]:
        """A score per action of ``discards`` (legal discards of the seat), higher is better: here the shanten
        after it (lower first), then how many tiles the seat has not seen in its own hand would lower it."""
        # One core call gives, per kind, the pair (-shanten after discarding it, improving copies) as one int.
        scores = _core.discard_scores(observation.counts, 0, len(observation.melds[observation.seat]), self._forms,
                                      ANY_KIND)
        return list(map(scores.__getitem__, map(_TILE, discards)))  # C-level loops: this runs at every turn

    def premium_discards(self, observation: Observation) -> tuple[int, ...]:
        """Kinds whose discard now is worth more than winning at once (best first); none by default."""
        return ()

    def prefers_own_draw(self, observation: Observation) -> bool:
        """Whether to let a win on another's tile pass, expecting more from one's own draws; no by default."""
        return False

    def self_draw_ratio(self, observation: Observation) -> float:
        """What a self-drawn win pays this seat, in discard wins of the same hand (1: no better, the default)."""
        return 1.0

    def winning_kinds(self, observation: Observation, counts: bytearray) -> list[int]:
        """The kinds that complete ``counts`` (the seat's concealed tiles, 3n+1 of them) with its melds."""
        return _core.waits(bytes(counts), 0, len(observation.melds[observation.seat]), self._forms, ANY_KIND)

    def discard_values(self, observation: Observation, discards: Sequence[Action]) -> list[float] | None:
        """What the hand each of ``discards`` leaves is likely to pay when it wins, as a multiple of the plainest
        win (for :class:`hupai.ev.EVBot` to weigh its improving tiles by); None (the default): every hand pays
        alike as far as the advice can tell."""
        return None

    def known_waits(self, observation: Observation) -> dict[int, frozenset[int]]:
        """The winning kinds of every other seat whose waits the table shows (a shown hand), by seat; none by
        default."""
        return {}

    def worth_kong(self, observation: Observation, kongs: Sequence[Action]) -> Action | None:
        """One of ``kongs`` (legal kongs of the seat: declared in its turn, or claimed on a discard) worth making
        now, or None (the default: GreedyBot's play, which never makes one)."""
        return None

    def kong_for_free(self, observation: Observation, kongs: Sequence[Action]) -> Action | None:
        """The first of ``kongs`` that keeps the hand's shanten (:meth:`kong_keeps_shape`) and cannot be robbed
        from a wait nobody shows: not a 补杠 of a suit tile (a run may wait on it; an honor's four copies are all
        this seat's). For the systems whose kongs pay (a replacement draw, 杠上开花, kong money)."""
        for kong in kongs:
            if (kong.flag != "added" or kong.tile >= _HONORS) and self.kong_keeps_shape(observation, kong):
                return kong
        return None

    def kong_keeps_shape(self, observation: Observation, kong: Action) -> bool:
        """Whether the hand after ``kong`` is as near a win (shanten) as the hand without it: then the kong gives
        a replacement draw for nothing (in the turn, against the best discard; on a discard, against passing)."""
        counts = bytearray(observation.counts)
        melds = len(observation.melds[observation.seat])
        after = bytearray(counts)
        after[kong.tile] -= 1 if kong.flag == "added" else 3 if kong.flag == "exposed" else 4
        rows = np.frombuffer(bytes(counts + after), dtype=np.uint8).reshape(2, 34)
        more = 0 if kong.flag == "added" else 1
        before, then = self.shanten(observation, rows, np.array([melds, melds + more], dtype=np.int32)).tolist()
        return bool(then <= before)

    def declare(self, observation: Observation, chosen: Action) -> Action:
        """The plain discard ``chosen``, or a legal declaration made with it that is worth making (Kawuxing's
        亮倒 with the same discard); ``chosen`` itself by default."""
        return chosen


#: The defaults, for rule systems that bring no advice: the standard form only.
PLAIN = Advice(Forms.STANDARD)
