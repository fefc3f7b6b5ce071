"""Feature arrays for agents, computed from an :class:`~hupai.observation.Observation` and nothing else.

The encoder never sees the game: what it is given is what the seat may see, so an agent trained on these
features cannot learn from another seat's hidden tiles (``tests/env`` changes another seat's concealed tiles
and gets the same arrays). Every per-seat array is in the observing seat's order: row 0 is the seat itself,
row 1 the next seat in turn order (下家), and so on.

=================  ==================  ===============================================================
key                shape, dtype        what it holds
=================  ==================  ===============================================================
``hand``           ``(K,)`` int8       the seat's concealed tiles as counts per kind (K = 34, or 20 cards)
``drawn``          ``(K,)`` int8       one-hot: the tile the seat just drew (zeros if none)
``tile``           ``(K,)`` int8       one-hot: the tile in question (the discard or card on offer)
``melds``          ``(n, K)`` int8     each seat's face-up meld tiles as counts
``hidden_melds``   ``(n,)`` int8       each seat's face-down melds (a concealed kong laid face down)
``discards``       ``(n, D)`` int8     each seat's discards in order, ``-1`` after the last (the last D
                                       kept, D = :attr:`Features.max_discards`)
``discard_counts`` ``(n, K)`` int8     each seat's discards as counts
``hand_sizes``     ``(n,)`` int8       each seat's concealed tile count
``table``          ``(T,)`` float32    live wall tiles, round wind (4), seat winds (n x 4), dealer,
                                       seats to act and the tile's source seat (n each, one-hot), the
                                       phase (one-hot over :data:`PHASES`)
``facts``          ``(F,)`` float32    the rule system's public facts (:attr:`Rules.public_facts`: the
                                       gold, 游 levels, 亮倒 flags and hands, the 神, 死手 flags, ...)
``private``        ``(P,)`` float32    the seat's own rule facts (:attr:`Rules.private_facts`)
``scores``         ``(n,)`` float32    the match scores before this hand
``action_mask``    ``(A,)`` int8       1 for each legal action's index (:class:`~hupai.env.ActionSpace`)
=================  ==================  ===============================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import HupaiError
from ..observation import Observation
from ..rules.base import Rules
from .actions import ActionSpace, kinds_of

__all__ = ["Features", "PHASES", "FACT_KINDS"]

#: The decision phases of every flow, in their one-hot order.
PHASES = ("turn", "predraw", "claim", "rob", "over")
#: How a declared fact is encoded (``Rules.public_facts`` / ``private_facts``): its width and meaning.
FACT_KINDS = {
    "tile": "one-hot over the tile kinds (none: zeros)",
    "tiles": "counts over the tile kinds of every tile the value holds, however nested",
    "int": "the value itself",
    "seat_ints": "one value per seat, in the observing seat's order",
    "seat_bools": "one 0/1 per seat, in the observing seat's order",
    "seat_tiles": "per seat, counts over the tile kinds, in the observing seat's order",
    "ints:N": "up to N values, -1 after the last",
    "choice:a|b": "one-hot over the named values (any other value: zeros)",
    "skip": "not encoded (engine bookkeeping)",
}


def _width(kind: str, kinds: int, n: int) -> int:
    if kind == "tile" or kind == "tiles":
        return kinds
    if kind == "int":
        return 1
    if kind in ("seat_ints", "seat_bools"):
        return n
    if kind == "seat_tiles":
        return n * kinds
    if kind.startswith("ints:"):
        return int(kind[5:])
    if kind.startswith("choice:"):
        return len(kind[7:].split("|"))
    if kind == "skip":
        return 0
    raise HupaiError(f"unknown fact encoding {kind!r} (known: {', '.join(FACT_KINDS)})")


def _count_tiles(value: Any, out: np.ndarray) -> None:
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < len(out):
            out[value] += 1
    elif isinstance(value, (tuple, list)):
        for item in value:
            _count_tiles(item, out)


class Features:
    """The feature layout of one rule system: :meth:`encode` an observation, :meth:`spaces` for Gymnasium."""

    def __init__(self, rules: Rules, actions: ActionSpace | None = None, max_discards: int | None = None) -> None:
        self.kinds = kinds_of(rules)
        self.num_players = rules.num_players
        self.actions = actions if actions is not None else ActionSpace(rules)
        #: Discards kept per seat: a seat's share of the tiles is more than it ever discards in practice; longer
        #: rows keep their last ``max_discards`` (``discard_counts`` holds them all).
        if max_discards is not None and (type(max_discards) is not int or max_discards < 1):
            raise HupaiError(f"max_discards must be an int >= 1 (or None), got {max_discards!r}")
        self.max_discards = max_discards if max_discards is not None else len(rules.tiles()) // self.num_players
        n, kinds = self.num_players, self.kinds
        self._public = tuple(rules.public_facts.items())
        self._private = tuple(rules.private_facts.items())
        self.facts_size = sum(_width(kind, kinds, n) for _, kind in self._public)
        self.private_size = sum(_width(kind, kinds, n) for _, kind in self._private)
        self.table_size = 1 + 4 + 4 * n + 3 * n + len(PHASES)
        self._shapes = self.shapes()

    def shapes(self) -> dict[str, tuple[tuple[int, ...], Any]]:
        """Each key's shape and dtype."""
        n, k = self.num_players, self.kinds
        i8, f32 = np.int8, np.float32
        return {"hand": ((k,), i8), "drawn": ((k,), i8), "tile": ((k,), i8), "melds": ((n, k), i8),
                "hidden_melds": ((n,), i8), "discards": ((n, self.max_discards), i8),
                "discard_counts": ((n, k), i8), "hand_sizes": ((n,), i8), "table": ((self.table_size,), f32),
                "facts": ((self.facts_size,), f32), "private": ((self.private_size,), f32),
                "scores": ((n,), f32), "action_mask": ((self.actions.n,), i8)}

    def spaces(self) -> Any:
        """The ``gymnasium.spaces.Dict`` of :meth:`encode`'s output."""
        from gymnasium import spaces

        box: Any = spaces.Box  # gymnasium's overloads type Box's dtype argument as float only
        out: dict[str, Any] = {}
        for key, (shape, dtype) in self.shapes().items():
            if dtype == np.float32:
                out[key] = box(-np.inf, np.inf, shape, np.float32)
            elif key == "discards":
                out[key] = box(-1, self.kinds - 1, shape, np.int8)
            elif key == "action_mask":
                out[key] = box(0, 1, shape, np.int8)
            else:
                out[key] = box(0, 127, shape, np.int8)
        return spaces.Dict(out)

    def encode(self, observation: Observation, scores: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        """The arrays of :meth:`shapes` for ``observation`` (``scores``: the match's, in seat order)."""
        n, kinds, seat = self.num_players, self.kinds, observation.seat
        if len(observation.counts) != kinds or observation.num_players != n:
            raise HupaiError(f"an observation of {observation.rules} ({len(observation.counts)} kinds, "
                             f"{observation.num_players} seats) given to the features of another rule system")
        order = [(seat + i) % n for i in range(n)]
        out = {key: np.zeros(shape, dtype) for key, (shape, dtype) in self._shapes.items()}
        out["hand"][:] = np.frombuffer(observation.counts, dtype=np.uint8)
        if observation.drawn >= 0:
            out["drawn"][observation.drawn] = 1
        if observation.tile >= 0:
            out["tile"][observation.tile] = 1
        hidden, discards = out["hidden_melds"], out["discards"]
        keep = self.max_discards
        meld_tiles: list[int] = []
        meld_rows: list[int] = []
        pile_tiles: list[int] = []
        pile_rows: list[int] = []
        discards[:] = -1
        for row, other in enumerate(order):
            for meld in observation.melds[other]:
                if meld.hidden:
                    hidden[row] += 1
                meld_tiles.extend(meld.tiles)
                meld_rows.extend([row] * len(meld.tiles))
            pile = observation.discards[other]
            if pile:
                pile_tiles.extend(pile)
                pile_rows.extend([row] * len(pile))
                kept = pile[-keep:]
                discards[row, :len(kept)] = kept
        # Counts per (row, kind) in one call each: bincount over row * kinds + kind.
        size = n * kinds
        if meld_tiles:
            flat = np.asarray(meld_rows) * kinds + np.asarray(meld_tiles)
            out["melds"][:] = np.bincount(flat, minlength=size).reshape(n, kinds)
        if pile_tiles:
            flat = np.asarray(pile_rows) * kinds + np.asarray(pile_tiles)
            out["discard_counts"][:] = np.bincount(flat, minlength=size).reshape(n, kinds)
        sizes = observation.hand_sizes
        out["hand_sizes"][:] = [sizes[other] for other in order]
        self._table(observation, order, out["table"])
        self._facts(self._public, observation.extras, order, out["facts"])
        self._facts(self._private, observation.private, order, out["private"])
        if scores is not None:
            out["scores"][:] = [scores[other] for other in order]
        mask = out["action_mask"]
        for index in self.actions.legal_indices(observation.legal_actions):
            mask[index] = 1
        return out

    def _table(self, observation: Observation, order: list[int], table: np.ndarray) -> None:
        n = self.num_players
        rows = {other: row for row, other in enumerate(order)}
        table[0] = observation.wall_left
        table[1 + observation.round_wind] = 1
        at = 5
        for other in order:
            table[at + observation.seat_winds[other]] = 1
            at += 4
        table[at + rows[observation.dealer]] = 1
        at += n
        for other in observation.to_act:
            table[at + rows[other]] = 1
        at += n
        if observation.source >= 0:
            table[at + rows[observation.source]] = 1
        at += n
        if observation.phase not in PHASES:
            raise HupaiError(f"hupai.env: unknown phase {observation.phase!r}")
        table[at + PHASES.index(observation.phase)] = 1

    def _facts(self, declared: tuple[tuple[str, str], ...], facts: Mapping[str, Any], order: list[int],
               out: np.ndarray) -> None:
        undeclared = set(facts) - {name for name, _ in declared}
        if undeclared:
            raise HupaiError(f"hupai.env: the observation shows facts its rule system does not declare: "
                             f"{sorted(undeclared)}")
        n, kinds = self.num_players, self.kinds
        at = 0
        for name, kind in declared:
            width = _width(kind, kinds, n)
            value = facts.get(name)
            part = out[at:at + width]
            at += width
            if value is None or kind == "skip":
                continue
            if kind == "tile":
                if isinstance(value, int) and 0 <= value < kinds:
                    part[value] = 1
            elif kind == "tiles":
                _count_tiles(value, part)
            elif kind == "int":
                part[0] = value
            elif kind in ("seat_ints", "seat_bools"):
                part[:] = [value[other] for other in order]
            elif kind == "seat_tiles":
                for row, other in enumerate(order):
                    _count_tiles(value[other], part[row * kinds:(row + 1) * kinds])
            elif kind.startswith("ints:"):
                part[:] = -1
                items = list(value)[:width]
                part[:len(items)] = items
            else:  # choice
                choices = kind[7:].split("|")
                if value in choices:
                    part[choices.index(value)] = 1
