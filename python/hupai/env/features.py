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
``scores``         ``(n,)`` float32    the match scores before this hand (times the reward scale)
``action_mask``    ``(A,)`` int8       1 for each legal action's index (:class:`~hupai.env.ActionSpace`)
``discard_shanten`` ``(K,)`` int8      the seat's shanten after discarding each kind it holds, as the rule
                                       system counts it (Yunxiao's golds as jokers); 99 where there is
                                       no such discard, and in Wai Huzi
=================  ==================  ===============================================================

Every array is bounded (:meth:`Features.spaces`): counts in 0..127, one-hots 0..1, the live wall in 0..its
size, facts in -1..127, scores in -1e9..1e9.
"""

from __future__ import annotations

import marshal
import struct
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import fields as dataclass_fields
from operator import attrgetter
from sys import byteorder, getrefcount
from typing import Any
from zlib import adler32

import numpy as np

from .. import _core
from .. import rules as rules_module
from ..actions import Action
from ..errors import HupaiError, IllegalAction
from ..game.mahjong.observation import PHASE_ORDER, as_observation
from ..game.state.zipai import menzi_triples
from ..observation import Observation
from ..rules.base import Rules
from ..rules.base_advice import Advice
from .actions import ActionSpace, kinds_of

__all__ = ["Encoder", "Features", "PHASES", "FACT_KINDS", "MAX_MELDS", "NO_DISCARD", "SCORE_BOUND"]

#: The decision phases of every flow, in their one-hot order (the observers number them so).
PHASES = PHASE_ORDER
#: ``discard_shanten`` where there is no such discard (a kind the seat does not hold, a hand that need not
#: discard, Wai Huzi).
NO_DISCARD = 99
#: Meld records per seat the core's encoder reads (more than any hand holds).
MAX_MELDS = 8
#: The bound of the ``scores`` box: far above any match's scores, so that the space is bounded.
SCORE_BOUND = 1e9
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


def _count_into(value: Any, out: list[float], at: int, width: int) -> None:
    """:func:`_count_tiles` into ``out[at:at + width]`` of a list. A plain int item of a sequence is counted in
    the loop (a flat tuple of tiles, the common value, makes no call per tile); anything else recurses."""
    if isinstance(value, (tuple, list)):
        for item in value:
            if type(item) is int:  # (a bool or an int subclass takes the recursion's checks)
                if 0 <= item < width:
                    out[at + item] += 1
            else:
                _count_into(item, out, at, width)
    elif isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < width:
            out[at + value] += 1


#: Wai Huzi's private facts, in their declared order, each a card mask (Features.mask_fact_bytes).
_MASK_FACTS = ("chi_ban", "peng_ban", "menzi_ban", "locked")
#: A 10-bit half of a card mask as its ten cards' float32 0/1 bytes.
_HALF_FLOATS = tuple(struct.pack("=10f", *[mask >> card & 1 for card in range(10)]) for mask in range(1024))
#: A menzi_ban mask's float32 card counts, by the mask (filled as masks are met).
_MENZI_FLOATS: dict[int, bytes] = {}

#: bytes.translate's table from the core's "not held" (127) to NO_DISCARD.
_NOT_HELD = bytes(NO_DISCARD if value == 127 else value for value in range(256))
#: The codes of :meth:`Features.fact_bytes`' plan, one per fact encoding (FACT_KINDS' order).
_TILE, _TILES, _INT, _SEAT_VALUES, _SEAT_TILES, _INTS, _CHOICE = range(7)


class Features:
    """The feature layout of one rule system: :meth:`encode` an observation, :meth:`spaces` for Gymnasium.

    ``score_scale`` multiplies the match scores (the environments pass their reward scale, so that scores and
    rewards are in the same unit)."""

    def __init__(self, rules: Rules, actions: ActionSpace | None = None, max_discards: int | None = None,
                 score_scale: float = 1.0) -> None:
        self.kinds = kinds_of(rules)
        self.num_players = rules.num_players
        self.actions = actions if actions is not None else ActionSpace(rules)
        #: Discards kept per seat: a seat's share of the tiles is more than it ever discards in practice; longer
        #: rows keep their last ``max_discards`` (``discard_counts`` holds them all).
        if max_discards is not None and (type(max_discards) is not int or max_discards < 1):
            raise HupaiError(f"max_discards must be an int >= 1 (or None), got {max_discards!r}")
        self.max_discards = max_discards if max_discards is not None else len(rules.tiles()) // self.num_players
        self.score_scale = float(score_scale)
        self.wall_size = len(rules.tiles())
        n, kinds = self.num_players, self.kinds
        self._public = tuple(rules.public_facts.items())
        self._private = tuple(rules.private_facts.items())
        self.facts_size = sum(_width(kind, kinds, n) for _, kind in self._public)
        self.private_size = sum(_width(kind, kinds, n) for _, kind in self._private)
        # fact_bytes' plan: (name, code, width, offset in the facts and private floats, choices), and the names
        # each mapping may hold.
        self._fact_plan: tuple[tuple[tuple[str, int, int, int, tuple[str, ...]], ...], ...] = (
            self._plan(self._public, 0), self._plan(self._private, 0))
        self._plan_names = tuple(tuple(entry[0] for entry in plan) for plan in self._fact_plan)
        self._part_widths = (self.facts_size, self.private_size)
        self._fact_structs = tuple(struct.Struct(f"={width}f") for width in self._part_widths)  # array("f"): 2x
        self._fact_cache: dict[tuple[int, int, bytes], bytes] = {}
        self._fact_names = (frozenset(name for name, _ in self._public), frozenset(name for name, _ in self._private))
        self._orders = tuple(tuple((seat + i) % n for i in range(n)) for seat in range(n))
        self.table_size = 1 + 4 + 4 * n + 3 * n + len(PHASES)
        #: The rule system's shanten count (its playing advice) for ``discard_shanten``; None: no such count.
        self.advice = rules_module.advice(rules.name) if rules.family == "mahjong" else None
        # The plain count (no wild tiles) is the core's, inside its encoder; a count that reads the table (Yunxiao's
        # gold) is the advice's, after it.
        self._core_shanten = self.advice is not None and type(self.advice).shanten is Advice.shanten
        # Yunxiao's count (the golds as jokers) is the core's too where the encoder reads a table's buffers (the gold
        # given in the fixed facts' flags: Encoder.game_inputs), and the advice's after the fields' encoder.
        self._gold_shanten = (self.advice is not None and not self._core_shanten
                              and type(self.advice).__name__ == "YunxiaoAdvice")
        self._shapes = self.shapes()
        # Every array of one encode is a view of one int8 and one float32 buffer: two allocations, not fourteen.
        self._layout: list[tuple[str, tuple[int, ...], bool, int, int]] = []
        at = {True: 0, False: 0}
        for key, (shape, dtype) in self._shapes.items():
            is_float = dtype == np.float32
            size = int(np.prod(shape))
            self._layout.append((key, shape, is_float, at[is_float], at[is_float] + size))
            at[is_float] += size
        self._int_size, self._float_size = at[False], at[True]
        # The core's encoder (cpp/features.hpp): the sizes it checks, and a blank meld-record block per table.
        self._stride = self.wall_size  # a discard pile never holds more tiles than the wall
        self._dims = (n, kinds, self.max_discards, self.actions.n, self.table_size, MAX_MELDS, self._stride,
                      self.advice._forms if self._core_shanten and self.advice is not None else 0,
                      self.advice._forms if self._gold_shanten and self.advice is not None else 0)
        self._blank_melds = bytes([0, 255, 255, 255, 255]) * (n * MAX_MELDS)
        self._phase = {phase: index for index, phase in enumerate(PHASES)}

    def shapes(self) -> dict[str, tuple[tuple[int, ...], Any]]:
        """Each key's shape and dtype."""
        n, k = self.num_players, self.kinds
        i8, f32 = np.int8, np.float32
        return {"hand": ((k,), i8), "drawn": ((k,), i8), "tile": ((k,), i8), "melds": ((n, k), i8),
                "hidden_melds": ((n,), i8), "discards": ((n, self.max_discards), i8),
                "discard_counts": ((n, k), i8), "hand_sizes": ((n,), i8), "table": ((self.table_size,), f32),
                "facts": ((self.facts_size,), f32), "private": ((self.private_size,), f32),
                "scores": ((n,), f32), "action_mask": ((self.actions.n,), i8),
                "discard_shanten": ((k,), i8)}

    def bounds(self) -> dict[str, tuple[float, float]]:
        """Each key's lowest and highest value (what :meth:`spaces` declares)."""
        out: dict[str, tuple[float, float]] = {}
        for key in self._shapes:
            out[key] = (0, 127)
        out.update({"drawn": (0, 1), "tile": (0, 1), "action_mask": (0, 1), "discards": (-1, self.kinds - 1),
                    "discard_shanten": (-1, NO_DISCARD), "table": (0, max(self.wall_size, 1)),
                    "facts": (-1, 127), "private": (-1, 127), "scores": (-SCORE_BOUND, SCORE_BOUND)})
        return out

    def spaces(self) -> Any:
        """The ``gymnasium.spaces.Dict`` of :meth:`encode`'s output (every box bounded)."""
        from gymnasium import spaces

        box: Any = spaces.Box  # gymnasium's overloads type Box's dtype argument as float only
        bounds = self.bounds()
        return spaces.Dict({key: box(bounds[key][0], bounds[key][1], shape, dtype)
                            for key, (shape, dtype) in self._shapes.items()})

    def empty(self, tables: int = 1) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Buffers for ``tables`` tables' features, ``int8[tables, I]`` and ``float32[tables, F]`` (uninitialised),
        and the arrays of :meth:`shapes` as views of them (with a leading ``tables`` axis when ``tables > 1``)."""
        ints = np.empty((tables, self._int_size), np.int8)
        floats = np.empty((tables, self._float_size), np.float32)
        if tables == 1:  # a 1-d key is its slice itself: no reshape
            int_row, float_row = ints[0], floats[0]
            return ints, floats, {key: (float_row if is_float else int_row)[start:stop] if len(shape) == 1
                                  else (float_row if is_float else int_row)[start:stop].reshape(shape)
                                  for key, shape, is_float, start, stop in self._layout}
        views = {key: (floats if is_float else ints)[:, start:stop].reshape((tables, *shape))
                 for key, shape, is_float, start, stop in self._layout}
        return ints, floats, views

    def checked_phase(self, observation: Observation) -> tuple[int, int]:
        """``observation``'s phase as its one-hot index and the seats to act as a bit mask, after checking that it
        is an observation of this rule system (HupaiError otherwise)."""
        if len(observation.counts) != self.kinds or observation.num_players != self.num_players:
            raise HupaiError(f"an observation of {observation.rules} ({len(observation.counts)} kinds, "
                             f"{observation.num_players} seats) given to the features of another rule system")
        phase = self._phase.get(observation.phase)
        if phase is None:
            raise HupaiError(f"hupai.env: unknown phase {observation.phase!r}")
        to_act = 0
        for other in observation.to_act:
            to_act |= 1 << other
        return phase, to_act

    def meld_records(self, all_melds: Sequence[Sequence[Any]]) -> tuple[bytes, tuple[int, ...]]:
        """Every seat's shown melds as the core encoder's records (:data:`MAX_MELDS` per seat, 5 bytes each: a
        face-down flag, then up to four tiles, 255 for none), and each seat's meld count."""
        meld_counts = tuple(map(len, all_melds))
        if not any(meld_counts):
            return self._blank_melds, meld_counts
        melds = bytearray(self._blank_melds)
        for other, seat_melds in enumerate(all_melds):
            if len(seat_melds) > MAX_MELDS:
                raise HupaiError(f"hupai.env: seat {other} shows {len(seat_melds)} melds (at most {MAX_MELDS})")
            at = other * MAX_MELDS * 5
            for meld in seat_melds:
                tiles = meld.tiles
                if tiles:
                    melds[at + 1:at + 1 + len(tiles)] = bytes(tiles)
                else:  # face down: its kind is not this seat's to see
                    melds[at] = 1
                at += 5
        return bytes(melds), meld_counts

    def core_inputs(self, observation: Observation) -> tuple[array[int], bytes, bytes, bytes, bytes]:
        """The core encoder's inputs for ``observation`` (cpp/features.hpp): what the observation holds, as plain
        data: small ints, the seat's counts, meld records and discards of every seat (in seat order, one pile
        after another), the legal actions' indices as uint16 bytes."""
        phase, to_act = self.checked_phase(observation)
        meld_bytes, meld_counts = self.meld_records(observation.melds)
        piles = observation.discards
        discards = b"".join(map(bytes, piles))
        legal = observation.legal_actions
        indices = self.legal_indices(legal)
        smalls = array("i", (observation.seat, observation.drawn, observation.tile, observation.wall_left,
                             observation.round_wind, observation.dealer, observation.source, phase, to_act,
                             len(indices)))
        smalls.extend(meld_counts)
        smalls.extend(map(len, piles))
        smalls.extend(observation.hand_sizes)
        smalls.extend(observation.seat_winds)
        return smalls, observation.counts, meld_bytes, discards, array("H", indices).tobytes()

    def legal_indices(self, legal: Sequence[Action]) -> list[int]:
        """The index of each of ``legal`` (in their order). Two legal actions on one index (a bug of the layout)
        are refused by the core's encoder, which reads them."""
        actions = self.actions
        found = list(map(actions._memo.get, legal))  # each found before: one C loop
        indices: list[int] = (list(map(actions.index, legal)) if None in found
                              else found)  # type: ignore[assignment]  # no None in it
        return indices

    def finish(self, observation: Observation, views: Mapping[str, np.ndarray], scores: Sequence[int] | None,
               discard_shanten: bool) -> None:
        """What the core's encoder leaves to Python: the rule facts, the scores, and ``discard_shanten`` where
        the rule system counts it itself (Yunxiao's gold)."""
        n = self.num_players
        order = [(observation.seat + i) % n for i in range(n)]
        self._facts(self._public, observation.extras, order, views["facts"])
        self._facts(self._private, observation.private, order, views["private"])
        if scores is not None:
            views["scores"][:] = [scores[other] * self.score_scale for other in order]
        if discard_shanten and self.advice is not None and not self._core_shanten:
            self._advice_shanten(observation, views["discard_shanten"])

    def _plan(self, declared: tuple[tuple[str, str], ...], at: int
              ) -> tuple[tuple[str, int, int, int, tuple[str, ...]], ...]:
        plan = []
        for name, kind in declared:
            width = _width(kind, self.kinds, self.num_players)
            if kind != "skip":
                code = {"tile": _TILE, "tiles": _TILES, "int": _INT, "seat_ints": _SEAT_VALUES,
                        "seat_bools": _SEAT_VALUES, "seat_tiles": _SEAT_TILES}.get(kind)
                if code is None:
                    code = _INTS if kind.startswith("ints:") else _CHOICE
                plan.append((name, code, width, at, tuple(kind[7:].split("|")) if code == _CHOICE else ()))
            at += width
        return tuple(plan)

    def fact_bytes(self, observation: Observation) -> bytes:
        """The ``facts`` and ``private`` arrays of ``observation``, one after the other, as float32 bytes: what
        :meth:`_facts` writes into them (the reference)."""
        seat = observation.seat
        return self._part_bytes(0, observation.extras, seat) + self._part_bytes(1, observation.private, seat)

    def _part_bytes(self, part: int, facts: Mapping[str, Any], seat: int) -> bytes:
        """:meth:`fact_bytes` of the public (``part`` 0) or private (1) facts, remembered by what the declared
        facts hold (their marshal bytes: equal only for values of the same types and contents, so that 1, True
        and 1.0, which some encodings tell apart, never share an entry); a value marshal cannot write is encoded
        each time. Most decisions show facts shown before (Yunxiao's change with its engine bookkeeping, which is
        not encoded; Wai Huzi's with every move)."""
        names = self._fact_names[part]
        if not names.issuperset(facts):
            raise HupaiError(f"hupai.env: the observation shows facts its rule system does not declare: "
                             f"{sorted(set(facts) - names)}")
        plan = self._fact_plan[part]
        if not plan:
            return b""
        values = tuple(map(facts.get, self._plan_names[part]))
        try:
            key: tuple[int, int, bytes] | None = (part, seat, marshal.dumps(values))
        except ValueError:
            key = None
        cache = self._fact_cache
        found = cache.get(key) if key is not None else None
        if found is not None:
            return found
        out = [0.0] * self._part_widths[part]
        order = self._orders[seat]
        kinds = self.kinds
        for (_, code, width, at, choices), value in zip(plan, values, strict=True):
            if value is None:
                continue
            if code == _TILE:
                if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < kinds:
                    out[at + value] = 1.0
            elif code == _TILES:
                _count_into(value, out, at, kinds)
            elif code == _INT:
                out[at] = value
            elif code == _SEAT_VALUES:
                out[at:at + width] = [value[other] for other in order]
            elif code == _SEAT_TILES:
                for row, other in enumerate(order):
                    _count_into(value[other], out, at + row * kinds, kinds)
            elif code == _INTS:
                items = list(value)[:width]
                out[at:at + width] = items + [-1.0] * (width - len(items))
            elif value in choices:
                out[at + choices.index(value)] = 1.0
        found = self._fact_structs[part].pack(*out)
        if key is not None:
            if len(cache) >= 4096:  # a bound: a long match shows a few hundred distinct fact sets
                cache.clear()
            cache[key] = found
        return found

    def mask_fact_bytes(self, masks: tuple[int, ...]) -> bytes:
        """The ``private`` array's float32 bytes of a Wai Huzi seat's masks ``(chi_ban, peng_ban, menzi_ban,
        locked)`` (what :meth:`_part_bytes` makes of their decoded mapping, :func:`~hupai.game.state.zipai.mask_cards`
        and :func:`~hupai.game.state.zipai.menzi_triples`), by table look-ups: the masks grow at most decisions."""
        if self._plan_names[1] != _MASK_FACTS or len(masks) != 4 or self.kinds != 20 or self.private_size != 80:
            raise HupaiError("hupai.env: masks given for private facts that are not Wai Huzi's")
        chi_ban, peng_ban, menzi_ban, locked = masks
        menzi = _MENZI_FLOATS.get(menzi_ban)
        if menzi is None:
            counts = [0.0] * 20
            for triple in menzi_triples(menzi_ban):
                for card in triple:
                    counts[card] += 1
            menzi = struct.pack("=20f", *counts)
            if len(_MENZI_FLOATS) < 4096:  # (a bound: the bans a few hundred hands show)
                _MENZI_FLOATS[menzi_ban] = menzi
        halves = _HALF_FLOATS
        return (halves[chi_ban & 1023] + halves[chi_ban >> 10 & 1023] + halves[peng_ban & 1023]
                + halves[peng_ban >> 10 & 1023] + menzi + halves[locked & 1023] + halves[locked >> 10 & 1023])

    def _advice_shanten(self, observation: Observation, out: np.ndarray) -> None:
        """``discard_shanten`` counted by the rule system's advice (a count that reads the table: Yunxiao's
        gold), where the core's encoder left 99."""
        assert self.advice is not None
        total = sum(observation.counts)
        if total % 3 != 2:
            return
        after = self.advice.discard_shanten(observation, (14 - total) // 3)
        if after is not None and len(after) == self.kinds and 0 <= min(after) and max(after) <= 127:
            # 127 (not held) is NO_DISCARD here: one translation of the bytes, one copy into the array.
            out[:] = np.frombuffer(bytes(after).translate(_NOT_HELD), np.int8)
            return
        hand = np.frombuffer(observation.counts, dtype=np.uint8)
        held = np.flatnonzero(hand)
        if len(held):
            rows = np.repeat(hand[None, :], len(held), axis=0)
            rows[np.arange(len(held)), held] -= 1
            out[held] = self.advice.shanten(observation, rows, (14 - total) // 3)

    def encode(self, observation: Observation, scores: Sequence[int] | None = None, *,
               discard_shanten: bool = True) -> dict[str, np.ndarray]:
        """The arrays of :meth:`shapes` for ``observation`` (``scores``: the match's, in seat order;
        ``discard_shanten=False`` leaves that array at 99 where the core does not count it, for a caller that
        counts it for many tables at once). The core writes them (cpp/features.hpp) from
        :meth:`core_inputs`, then :meth:`finish` adds the rule facts and scores."""
        ints, floats, views = self.empty()
        _core.encode_features(ints, floats, *self.core_inputs(observation), self._dims)
        self.finish(observation, views, scores, discard_shanten)
        return views

    def encode_many(self, observations: Sequence[Observation], scores: Sequence[Sequence[int] | None],
                    discard_shanten: bool = True) -> dict[str, np.ndarray]:
        """:meth:`encode` of every observation, stacked (a leading axis of ``len(observations)``), the core's
        part in one call for all of them."""
        count = len(observations)
        ints, floats, views = self.empty(count)
        inputs = [self.core_inputs(observation) for observation in observations]
        smalls = array("i")
        for row in inputs:
            smalls.extend(row[0])
        hands, melds, discards, legal = (b"".join([row[part] for row in inputs])
                                         for part in (1, 2, 3, 4))
        _core.encode_features(ints, floats, smalls, hands, melds, discards, legal, self._dims)
        single = self._layout
        for table, observation in enumerate(observations):
            rows = {key: (floats if is_float else ints)[table, start:stop].reshape(shape)
                    for key, shape, is_float, start, stop in single}
            self.finish(observation, rows, scores[table], discard_shanten)
        if count == 1:
            views = {key: value[None] for key, value in views.items()}
        return views

    def encode_python(self, observation: Observation, scores: Sequence[int] | None = None, *,
                      discard_shanten: bool = True) -> dict[str, np.ndarray]:
        """What :meth:`encode` gives, computed in Python alone: the reference the core's encoder is tested
        against."""
        n, kinds, seat = self.num_players, self.kinds, observation.seat
        if len(observation.counts) != kinds or observation.num_players != n:
            raise HupaiError(f"an observation of {observation.rules} ({len(observation.counts)} kinds, "
                             f"{observation.num_players} seats) given to the features of another rule system")
        order = [(seat + i) % n for i in range(n)]
        ints, floats, out = self.empty()
        ints[:] = 0
        floats[:] = 0
        hand = np.frombuffer(observation.counts, dtype=np.uint8)
        out["hand"][:] = hand
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
            out["scores"][:] = [scores[other] * self.score_scale for other in order]
        mask = out["action_mask"]
        for index in self.actions.legal_indices(observation.legal_actions):
            mask[index] = 1
        shanten = out["discard_shanten"]
        shanten[:] = NO_DISCARD
        if discard_shanten and self.advice is not None:
            held = np.flatnonzero(hand)
            total = int(hand.sum())
            if total % 3 == 2 and len(held):
                rows = np.repeat(hand[None, :], len(held), axis=0)
                rows[np.arange(len(held)), held] -= 1
                shanten[held] = self.advice.shanten(observation, rows, (14 - total) // 3)
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
                # (A bool is no tile: numpy would read part[True] as a mask and set every kind.)
                if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < kinds:
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


#: The smalls' fixed part (cpp/features.hpp: FeatureDims::kSmallsFixed native int32 values).
_pack_smalls = struct.Struct("=10i").pack
#: A table's state for _core.encode_tables (cpp/features.hpp: TableState::kSize native int32 values).
_pack_state = struct.Struct("=11i").pack
#: Where the fixed facts' flags hold the gold + 1 (features.hpp TableState::kGoldShift).
_GOLD_SHIFT = 8
#: Where Observer.buffers puts the seat's hand.
_B_HAND = 11


#: An observation's fields in their order (what :meth:`Observer.seen <hupai.game.Observer.seen>` gives), one C call.
_fields = attrgetter(*(field.name for field in dataclass_fields(Observation)))
_NAMES = tuple(field.name for field in dataclass_fields(Observation))
(_F_SEAT, _F_PHASE, _F_TO_ACT, _F_TILE, _F_SOURCE, _F_DEALER, _F_ROUND_WIND, _F_SEAT_WINDS, _F_COUNTS, _F_DRAWN,
 _F_HAND_SIZES, _F_MELDS, _F_DISCARDS, _F_WALL_LEFT, _F_EXTRAS, _F_LEGAL, _F_PRIVATE) = map(_NAMES.index, (
    "seat", "phase", "to_act", "tile", "source", "dealer", "round_wind", "seat_winds", "counts", "drawn",
    "hand_sizes", "melds", "discards", "wall_left", "extras", "legal_actions", "private"))

#: The slots an :class:`Encoder` hands out in turn: a decision's arrays are those of one slot, which the encoder
#: writes again, when its turn comes round, only if nothing outside it holds them (else it makes the slot anew).
POOL_ROWS = 4


#: An encoder's slot (Encoder._new_slot): memoryviews of its int8 and float32 buffers, its dict of views, and the
#: buffers and views whose reference counts say whether it is free.
_Slot = tuple[memoryview, memoryview, dict[str, np.ndarray], tuple[np.ndarray, ...]]


def _references(slot: _Slot) -> int:
    """The sum of the reference counts of a slot's buffers and arrays. Every view of an array shares its buffer
    (numpy makes a view's base the array that owns the memory), so a view a caller keeps shows in its buffer's
    count, and an array it keeps (alone or in a dict) in that array's. No count falls below the one it had when
    the slot was made (the slot's own references stay), so the sum is the same then only if every count is: one
    C loop, no list to make and compare."""
    return sum(map(getrefcount, slot[3]))


class Encoder:
    """One table's :meth:`Features.encode`, for an environment that encodes at every decision: what the observer
    keeps between decisions (the meld views, the discard piles, the rule facts, each one an immutable value that
    stays the same object until the table moves) is turned into the core's inputs once per object, not once per
    decision, and the arrays are written by one core call, the rule facts and scores included.

    An observation a caller keeps is never overwritten: the arrays of a decision are one of :data:`POOL_ROWS`
    slots taken in turn, and a slot's arrays are written again only when no reference to them or to their buffers
    is left but the encoder's own (the reference counts say so: the dict handed out, any of its arrays, or any
    view made of them keeps the slot from reuse, and a new one is made). A caller that drops each observation
    after its step (a training loop) then costs no new arrays at all: making a decision's fourteen numpy views was
    the largest part of encoding it.

    The arrays are exactly :meth:`Features.encode`'s (and :meth:`Features.encode_python`'s: tested at every
    decision of seeded hands in every system)."""

    __slots__ = ("features", "_actions", "_melds", "_piles", "_legal", "_facts", "_scores", "_slots", "_free",
                 "_at", "_tail_width", "_seat_part", "_private_facts", "_phases", "_to_act", "_shape", "_n",
                 "_python_shanten", "_memo_get", "_fixed", "_tail")

    def __init__(self, features: Features) -> None:
        self.features = features
        self._actions = features.actions
        self._n = features.actions.n
        # The layout's memo of each action's index as native uint16 bytes (never replaced).
        self._memo_get = features.actions._packed.get
        # Whether discard_shanten is the rule system's advice's to count after the core's call (Yunxiao's gold).
        self._python_shanten = features.advice is not None and not features._core_shanten
        # Identity caches: (the value, what it encodes to). Each holds its value, so an id is never reused while
        # it is a key; the observer builds a new value whenever what it shows changes.
        self._melds: dict[int, tuple[Any, bytes, tuple[int, ...]]] = {}
        self._piles: tuple[Any, bytes, tuple[int, ...]] = (None, b"", ())
        self._legal: tuple[Any, bytes] = (None, b"")
        # The facts' float bytes by the identity of the mapping they encode, public and private apart (a Wai Huzi
        # seat's bans change without the public facts, which go back and forth between two mappings as the offer
        # does): (seat, id) -> (the mapping, its bytes); seat -> (its private mapping, their bytes).
        self._facts: dict[tuple[int, int], tuple[Any, bytes]] = {}
        self._private_facts: dict[int, tuple[Any, bytes]] = {}
        # The scores as each seat sees them (its order, times the scale): seat -> (the scores, their bytes).
        self._scores: dict[int, tuple[list[int] | None, bytes]] = {}
        # The per-seat part of the smalls (meld and discard counts, hand sizes, winds), kept while the four
        # tuples it is made of are the same objects (the observer keeps each until it changes).
        self._seat_part: tuple[Any, Any, Any, Any, bytes] = (None, None, None, None, b"")
        self._phases = features._phase
        self._to_act: dict[tuple[int, ...], int] = {}  # seats to act -> their bit mask
        self._shape = (features.kinds, features.num_players)
        # The slots (each: its int8 and float32 buffers, and the arrays of the keys as views of them) and the
        # reference counts each has when nothing but the encoder holds it.
        self._slots: list[_Slot | None] = [None] * POOL_ROWS
        self._free: list[int] = [0] * POOL_ROWS
        self._at = 0
        self._tail_width = features._float_size - features.table_size
        # encode_game's caches: the hand's fixed facts (the observer's object, its int32 bytes), and the last tail
        # (the public facts', private facts' and scores' bytes, and the three joined).
        self._fixed: tuple[Any, bytes] = (None, b"")
        self._tail: tuple[bytes, bytes, bytes, bytes] = (b"", b"", b"", b"")

    def inputs(self, observation: Observation, scores: Sequence[int] | None
               ) -> tuple[array[int], bytes, bytes, bytes, bytes, bytes]:
        """The core's inputs for ``observation`` (:meth:`Features.core_inputs`), and its float tail: the rule
        facts, the seat's private facts and the scores, as float32 bytes."""
        return self.seen_inputs(_fields(observation), scores)

    def seen_inputs(self, fields: tuple[Any, ...], scores: Sequence[int] | None
                    ) -> tuple[array[int], bytes, bytes, bytes, bytes, bytes]:
        """:meth:`inputs` of an observation's fields in their order (:meth:`Observer.seen
        <hupai.game.Observer.seen>`: what an environment encodes without making the observation)."""
        features = self.features
        counts, winds = fields[_F_COUNTS], fields[_F_SEAT_WINDS]
        phase = self._phases.get(fields[_F_PHASE], -1)
        if phase < 0 or (len(counts), len(winds)) != self._shape:
            features.checked_phase(as_observation(fields))  # raises, saying what is wrong
        seats = fields[_F_TO_ACT]
        to_act = self._to_act.get(seats, -1)
        if to_act < 0:
            to_act = sum(1 << other for other in set(seats))
            self._to_act[seats] = to_act
        seat = fields[_F_SEAT]
        melds = fields[_F_MELDS]
        meld_entry = self._melds.get(id(melds))
        if meld_entry is None or meld_entry[0] is not melds:
            if len(self._melds) >= 16:  # a hand has a few meld views at a time: the old ones are gone
                self._melds.clear()
            meld_entry = self._melds[id(melds)] = (melds, *features.meld_records(melds))
        piles = fields[_F_DISCARDS]
        pile_entry = self._piles
        if pile_entry[0] is not piles:
            pile_entry = self._piles = (piles, b"".join(map(bytes, piles)), tuple(map(len, piles)))
        legal = fields[_F_LEGAL]
        cached = self._legal
        if cached[0] is not legal:
            cached = self._legal_entry(legal)
        sizes = fields[_F_HAND_SIZES]
        part = self._seat_part
        if part[0] is not meld_entry or part[1] is not pile_entry or part[2] is not sizes or part[3] is not winds:
            part = self._seat_part = (meld_entry, pile_entry, sizes, winds,
                                      array("i", meld_entry[2] + pile_entry[2] + sizes + winds).tobytes())
        # The fixed smalls packed by struct and the array made of bytes (a copy): array("i", ints) converts each
        # item through the argument parser, twice the cost.
        try:
            packed = _pack_smalls(seat, fields[_F_DRAWN], fields[_F_TILE], fields[_F_WALL_LEFT],
                                  fields[_F_ROUND_WIND], fields[_F_DEALER], fields[_F_SOURCE], phase, to_act,
                                  len(cached[1]) >> 1)
        except struct.error as error:
            raise HupaiError(f"hupai.env: an observation's seat, tiles, wall or dealer is no int in range ({error})"
                             ) from None
        smalls = array("i", packed + part[4])
        extras, private = fields[_F_EXTRAS], fields[_F_PRIVATE]
        public_entry = self._facts.get((seat, id(extras)))  # kept while the mapping is the same object
        if public_entry is None or public_entry[0] is not extras:
            if len(self._facts) >= 32:  # a hand shows a few public mappings at a time: the old ones are gone
                self._facts.clear()
            public_entry = self._facts[seat, id(extras)] = (extras, features._part_bytes(0, extras, seat))
        private_entry = self._private_facts.get(seat)
        if private_entry is None or private_entry[0] is not private:
            if len(self._private_facts) >= 16:  # (only an observation of a seat no table has could make more)
                self._private_facts.clear()
            private_entry = self._private_facts[seat] = (private, features._part_bytes(1, private, seat))
        score_entry = self._scores.get(seat)
        # A list of scores (Match.scores) is compared with the copy kept without copying it again; any other
        # sequence (a tuple, an array) is encoded afresh.
        if score_entry is None or not (score_entry[0] is scores is None
                                       or (type(scores) is list and score_entry[0] == scores)):
            shown = list(scores) if scores is not None else None
            n = features.num_players
            values = [0.0] * n if shown is None else [shown[(seat + i) % n] * features.score_scale for i in range(n)]
            score_entry = self._scores[seat] = (shown, array("f", values).tobytes())
        return (smalls, counts, meld_entry[1], pile_entry[1], cached[1],
                public_entry[1] + private_entry[1] + score_entry[1])

    def game_inputs(self, buffers: tuple[Any, ...], scores: Sequence[int] | None) -> tuple[Any, ...]:
        """``_core.encode_table``'s inputs of one table (state, fixed, hand, piles, made, records, legal, tail) from
        :meth:`Observer.buffers <hupai.game.Observer.buffers>`: the table's buffers handed on as they are, the small
        facts packed, the legal actions' indices and the rule facts' and scores' floats kept while their objects
        stay the same."""
        (seat, drawn, tile, wall_left, round_wind, dealer, source, phase, to_act, mode, fixed, hand, piles, made,
         records, extras, private, legal, sizes) = buffers
        cached = self._legal
        if cached[0] is not legal:
            cached = self._legal_entry(legal)
        try:
            state = _pack_state(seat, drawn, tile, wall_left, round_wind, dealer, source, phase, to_act,
                                len(cached[1]) >> 1, mode)
        except struct.error as error:
            raise HupaiError(f"hupai.env: a table's seat, tiles, wall or dealer is no int in range ({error})"
                             ) from None
        fixed_entry = self._fixed
        if fixed_entry[0] is not fixed or sizes is not None:
            fixed_entry = (fixed, array("i", (fixed[0], fixed[1] | self._gold_flags(extras), *fixed[2],
                                               *(sizes if sizes is not None else fixed[2]))).tobytes())
            if sizes is None:  # (the sizes of a hand's end are its own)
                self._fixed = fixed_entry
        public_entry = self._facts.get((seat, id(extras)))
        if public_entry is None or public_entry[0] is not extras:
            if len(self._facts) >= 2048:  # (Wai Huzi's mappings recur from hand to hand: a few hundred, by seat)
                self._facts.clear()
            public_entry = self._facts[seat, id(extras)] = (extras, self.features._part_bytes(0, extras, seat))
        private_entry = self._private_facts.get(seat)
        if private_entry is None or private_entry[0] is not private:
            if type(private) is tuple:  # Wai Huzi's masks (Observer.buffers): kept while they are equal
                if private_entry is None or private_entry[0] != private:
                    private_entry = self._private_facts[seat] = (private, self.features.mask_fact_bytes(private))
            else:
                if len(self._private_facts) >= 16:
                    self._private_facts.clear()
                private_entry = self._private_facts[seat] = (private, self.features._part_bytes(1, private, seat))
        score_entry = self._scores.get(seat)
        if score_entry is None or not (score_entry[0] is scores is None
                                       or (type(scores) is list and score_entry[0] == scores)):
            score_entry = self._score_bytes(seat, scores)
        tail = self._tail
        if tail[0] is not public_entry[1] or tail[1] is not private_entry[1] or tail[2] is not score_entry[1]:
            tail = self._tail = (public_entry[1], private_entry[1], score_entry[1],
                                 public_entry[1] + private_entry[1] + score_entry[1])
        return state, fixed_entry[1], hand, piles, made, records, cached[1], tail[3]

    def _gold_flags(self, extras: Mapping[str, Any]) -> int:
        """The fixed flags' gold (+ 1, from bit 8; 0: none) where the core counts ``discard_shanten`` with the golds
        as jokers (Yunxiao's): the hand's gold, a public fact fixed at its deal (YX-6), kept with the fixed facts."""
        if not self.features._gold_shanten:
            return 0
        gold = extras.get("gold")
        if type(gold) is not int or not 0 <= gold < self.features.kinds:
            raise HupaiError(f"hupai.env: the table's gold is no kind, got {gold!r}")
        return (gold + 1) << _GOLD_SHIFT

    def _legal_entry(self, legal: Sequence[Action]) -> tuple[Any, bytes]:
        """``legal`` and its actions' indices as native uint16 bytes (kept as :attr:`_legal`): each action's two
        bytes as the layout's memo keeps them, joined by one C call (``array("H", indices)`` converts each index
        through the argument parser, several times the cost); an action met for the first time is indexed first
        (HupaiError for one the layout has no index for)."""
        try:
            packed = b"".join(map(self._memo_get, legal))  # type: ignore[arg-type]  # (None: TypeError)
        except TypeError:  # (an action not met before: None, which join refuses)
            actions = self._actions
            memo = actions._packed
            for action in legal:
                if action not in memo:
                    memo[action] = actions.index(action).to_bytes(2, byteorder)
            packed = b"".join(map(self._memo_get, legal))  # type: ignore[arg-type]
        entry = self._legal = (legal, packed)
        return entry

    def _score_bytes(self, seat: int, scores: Sequence[int] | None) -> tuple[list[int] | None, bytes]:
        """The scores as ``seat`` sees them (its order, times the scale), kept for the seat."""
        features = self.features
        shown = list(scores) if scores is not None else None
        n = features.num_players
        values = [0.0] * n if shown is None else [shown[(seat + i) % n] * features.score_scale for i in range(n)]
        entry = self._scores[seat] = (shown, array("f", values).tobytes())
        return entry

    def encode_game(self, observer: Any, game: Any, seat: int, scores: Sequence[int] | None = None, *,
                    discard_shanten: bool = True) -> dict[str, np.ndarray]:
        """:meth:`encode` of ``seat``'s observation of ``game`` (``observer``: the game's
        :class:`~hupai.game.Observer`), read by the core from the table's own buffers (:meth:`game_inputs`):
        the same arrays, without the observation or its fields."""
        slot = self._take_slot()
        buffers = observer.buffers(game, seat)
        _core.encode_table(slot[0], slot[1], self.features._dims, 0, *self.game_inputs(buffers, scores))
        views = slot[2].copy()
        if self._python_shanten:
            if not discard_shanten:  # (the core counted Yunxiao's: left at 99 as asked)
                views["discard_shanten"][:] = NO_DISCARD
            elif not self.features._gold_shanten:
                self._game_shanten(observer, game, buffers, views["discard_shanten"])
        return views

    def _game_shanten(self, observer: Any, game: Any, buffers: tuple[Any, ...], out: np.ndarray) -> None:
        """``discard_shanten`` by the rule system's own count where the core left it at 99 (an advice whose count
        reads the table and that the core does not count: none now, Yunxiao's is the core's)."""
        hand = buffers[_B_HAND]
        if ((adler32(hand) & 0xFFFF) - 1) % 3 == 2:  # (the tiles held: Adler-32's low half is 1 + the byte sum)
            self.features._advice_shanten(observer.view(game, buffers[0]), out)

    @staticmethod
    def encode_many_games(encoders: Sequence[Encoder], tables: Sequence[tuple[Any, Any, int]],
                          scores: Sequence[Sequence[int] | None], discard_shanten: bool = True
                          ) -> dict[str, np.ndarray]:
        """:meth:`encode_game` of each ``(observer, game, seat)`` by its encoder, stacked (a leading axis of
        ``len(tables)``): one core call for every table (the GIL released), into fresh arrays."""
        features = encoders[0].features
        count = len(tables)
        ints, floats, views = features.empty(count)
        buffers = [observer.buffers(game, seat) for observer, game, seat in tables]
        _core.encode_tables(ints, floats, features._dims, 0,
                            [encoder.game_inputs(table, table_scores)
                             for encoder, table, table_scores in zip(encoders, buffers, scores, strict=True)])
        if count == 1:
            views = {key: value[None] for key, value in views.items()}
        if features.advice is not None and not features._core_shanten and features._gold_shanten:
            if not discard_shanten:  # (the core counted Yunxiao's: left at 99 as asked)
                views["discard_shanten"][...] = NO_DISCARD
        elif discard_shanten and features.advice is not None and not features._core_shanten:
            shanten = views["discard_shanten"]
            for row, (encoder, (observer, game, _)) in enumerate(zip(encoders, tables, strict=True)):
                encoder._game_shanten(observer, game, buffers[row], shanten[row])
        return views

    def action(self, index: Any, legal: Sequence[Action]) -> Action:
        """:meth:`ActionSpace.action`: the legal action at ``index`` (IllegalAction for an index of none), from
        the indices found for the mask when ``legal`` is the decision last encoded."""
        cached = self._legal
        if cached[0] is not legal:
            return self._actions.action(index, legal)
        # A plain int in range (what an agent mostly gives) needs no conversion: as_index's checks skipped.
        checked = index if type(index) is int and 0 <= index < self._n else self._actions.as_index(index)
        packed: bytes = cached[1]
        needle = checked.to_bytes(2, byteorder)
        at = packed.find(needle)
        while at > 0 and at & 1:  # (found across two indices' bytes: not one of them)
            at = packed.find(needle, at + 1)
        if at < 0:
            raise IllegalAction(f"action index {checked} is not legal now (see the observation's action_mask)")
        chosen: Action = legal[at >> 1]
        return chosen

    def encode(self, observation: Observation, scores: Sequence[int] | None = None, *,
               discard_shanten: bool = True) -> dict[str, np.ndarray]:
        """:meth:`Features.encode` of ``observation``: arrays that nothing else holds (see the class)."""
        return self.encode_seen(_fields(observation), scores, discard_shanten=discard_shanten,
                                observation=observation)

    def encode_seen(self, fields: tuple[Any, ...], scores: Sequence[int] | None = None, *,
                    discard_shanten: bool = True, observation: Observation | None = None) -> dict[str, np.ndarray]:
        """:meth:`encode` of an observation's fields (:meth:`Observer.seen <hupai.game.Observer.seen>`), the
        observation made only where the rule system's own shanten count reads it (``observation``: it, if the
        caller has it)."""
        features = self.features
        slot = self._take_slot()
        smalls, hand, melds, discards, legal, tail = self.seen_inputs(fields, scores)
        _core.encode_features(slot[0], slot[1], smalls, hand, melds, discards, legal, features._dims, tail, 0)
        views = slot[2].copy()  # (a dict's copy clones its table: a new dict of 14 items costs ten times more)
        if discard_shanten and self._python_shanten:
            features._advice_shanten(observation if observation is not None else as_observation(fields),
                                     views["discard_shanten"])
        return views

    def _take_slot(self) -> _Slot:
        """The next slot in turn, made anew if anything outside the encoder still holds its arrays."""
        at = self._at
        self._at = at + 1 if at + 1 < POOL_ROWS else 0
        slot = self._slots[at]
        if slot is None or sum(map(getrefcount, slot[3])) != self._free[at]:  # _references(slot), inline
            slot = self._slots[at] = self._new_slot()
            self._free[at] = _references(slot)
        return slot

    def _new_slot(self) -> _Slot:
        """A slot: memoryviews of its buffers (what the core writes through: a numpy array exports its buffer
        to the core at every call at the cost of a third of the encoding, working out its format string and
        strides each time, where a memoryview hands on the export it made once), its dict of views (each decision
        hands out a copy, so that a caller's changes to a dict never reach the slot), and the buffers and views
        whose reference counts say whether it is free (the memoryviews' references to the buffers are counted
        when the slot is made, and stay)."""
        ints, floats, views = self.features.empty(1)
        return ints.data, floats.data, views, (ints, floats, *views.values())  # (.data: a new memoryview)

    @staticmethod
    def encode_many(encoders: Sequence[Encoder], observations: Sequence[Observation],
                    scores: Sequence[Sequence[int] | None], discard_shanten: bool = True
                    ) -> dict[str, np.ndarray]:
        """Each encoder's :meth:`encode` of its observation, stacked (a leading axis of ``len(observations)``):
        one core call for every table, into fresh arrays."""
        return Encoder.encode_many_seen(encoders, list(map(_fields, observations)), scores, discard_shanten,
                                        observations)

    @staticmethod
    def encode_many_seen(encoders: Sequence[Encoder], seen: Sequence[tuple[Any, ...]],
                         scores: Sequence[Sequence[int] | None], discard_shanten: bool = True,
                         observations: Sequence[Observation] | None = None) -> dict[str, np.ndarray]:
        """:meth:`encode_many` of observations' fields (:meth:`Observer.seen <hupai.game.Observer.seen>`), each
        observation made only where the rule system's own shanten count reads it (``observations``: them, if
        the caller has them)."""
        features = encoders[0].features
        count = len(seen)
        ints, floats, views = features.empty(count)
        inputs = [encoder.seen_inputs(fields, table_scores)
                  for encoder, fields, table_scores in zip(encoders, seen, scores, strict=True)]
        smalls = array("i")
        for row in inputs:
            smalls.extend(row[0])
        hands, melds, discards, legal, tails = (b"".join([row[part] for row in inputs]) for part in (1, 2, 3, 4, 5))
        _core.encode_features(ints, floats, smalls, hands, melds, discards, legal, features._dims, tails)
        if count == 1:
            views = {key: value[None] for key, value in views.items()}
        if discard_shanten and features.advice is not None and not features._core_shanten:
            shanten = views["discard_shanten"]
            for table, fields in enumerate(seen):
                features._advice_shanten(observations[table] if observations is not None else as_observation(fields),
                                         shanten[table])
        return views
