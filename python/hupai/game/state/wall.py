"""The wall: our own seeded shuffle and per-hand seeds (determinism, DESIGN §6).

Why our own: ``random.shuffle`` and ``std::shuffle`` are not specified across versions and platforms (mjx
#564), so a log recorded today might not replay tomorrow. Here every step is specified:

- :func:`hand_seed` derives the seed of hand ``i`` of a match from ``(match_seed, i)`` with splitmix64, so
  successive hands never reuse a wall (RiichiEnv PR #67).
- :func:`shuffle` seeds numpy's PCG64 bit generator (``np.random.PCG64(seed)``, whose seeding through
  ``SeedSequence`` and raw output stream numpy documents as stable), takes ``n - 1`` raw 64-bit outputs
  (``random_raw``) and runs Fisher-Yates from the end, choosing ``j = (raw * (i + 1)) >> 64`` (Lemire's
  multiply-shift; its bias, below 2**-56 for walls of this size, does not matter and keeps it branch-free).
  The core does all of it (``cpp/wall.cpp``, the same generator and seeding re-implemented) in about a
  microsecond instead of fifty; numpy stays the reference it is tested against.

The wall is a typed buffer: :attr:`Wall.tiles` is a ``bytearray``, one byte a tile (a mahjong kind 0..33 or a
zipai card 0..19), with ``head`` and ``tail`` ints. The core fills it at the shuffle and reads it in place (the
lean turn's draw, the deal's counts), so neither side makes or reads a list of ints; a fork copies 136 bytes.
Readers see it as a ``Sequence[int]`` (indexing gives ints, a slice another bytearray: ``list()`` it for JSON).
"""


from __future__ import annotations

from collections.abc import Sequence

from ... import _core
from ...tiles import STANDARD_TILES

__all__ = ["splitmix64", "hand_seed", "shuffle", "Wall"]

_MASK64 = (1 << 64) - 1


def splitmix64(value: int) -> int:
    """One splitmix64 output for the state ``value`` (Steele, Lea & Flood 2014), as a 64-bit int."""
    z = (value + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def hand_seed(match_seed: int, hand_index: int) -> int:
    """The wall seed of hand ``hand_index`` (0-based) of a match played with ``match_seed``."""
    return splitmix64(splitmix64(match_seed & _MASK64) ^ (hand_index & _MASK64))


def shuffle(tiles: Sequence[int], seed: int) -> bytearray:
    """A new bytearray holding ``tiles`` (each 0..255) in the order fixed by ``seed`` (any non-negative int).

    Runs in the core (``_core.shuffle_tiles``); ``tests/game/test_wall.py`` checks it against the algorithm
    above written with numpy, and its raw stream against ``np.random.PCG64`` itself.
    """
    return _core.shuffle_tiles(tiles, seed)


class Wall:
    """Tiles still to be drawn: normal draws come from the head, replacement draws (rules permitting) from the
    tail.

    ``tiles`` is the whole wall as dealt, a ``bytearray`` of kinds (given one, the wall keeps that object; any
    other sequence of ints 0..255 is copied into one); ``tiles[head:tail]`` are live. ``live`` counts them; the
    order is hidden from observations.
    """

    __slots__ = ("tiles", "head", "tail")

    tiles: bytearray

    def __init__(self, tiles: bytearray | Sequence[int], head: int = 0, tail: int | None = None) -> None:
        self.tiles = tiles if type(tiles) is bytearray else bytearray(tiles)  # noqa: E721
        self.head = head
        self.tail = len(tiles) if tail is None else tail

    def copy(self) -> Wall:
        """An independent wall at the same head and tail (a search fork: its own buffer)."""
        return Wall(bytearray(self.tiles), self.head, self.tail)

    @property
    def live(self) -> int:
        return self.tail - self.head

    def draw(self) -> int:
        tile = self.tiles[self.head]
        self.head += 1
        return tile

    def draw_tail(self) -> int:
        self.tail -= 1
        return self.tiles[self.tail]

    def to_json(self) -> list[list[int]]:
        return [list(self.tiles[self.head:self.tail])]

    @classmethod
    def from_json(cls, data: Sequence[Sequence[int]]) -> Wall:
        return cls(list(data[0]))


def stacked_wall(hands: Sequence[Sequence[int]], dealer: int = 0, draws: Sequence[int] = (),
                 replacements: Sequence[int] = (), tiles: Sequence[int] | None = None) -> list[int]:
    """A wall arranged so the deal gives ``hands`` (per seat; the dealer's has one tile more, its last is the
    extra 14th) and the draws come in the order ``draws``, kong replacements (from the tail) in the order
    ``replacements``; the other tiles fill the middle in kind order. For examples, tests and replaying hands
    played elsewhere: pass it as ``Game(..., wall=...)``.
    """
    from collections import Counter

    n = len(hands)
    left = Counter(STANDARD_TILES if tiles is None else tiles)
    used = Counter([t for hand in hands for t in hand]) + Counter(draws) + Counter(replacements)
    short = sorted(kind for kind, count in used.items() if count > left[kind])
    if short:
        raise ValueError(f"stacked wall uses more copies than exist of kinds {short}")
    left.subtract(used)
    head: list[int] = []
    for offset in range(n):
        seat = (dealer + offset) % n
        head.extend(hands[seat][:len(hands[seat]) - (1 if seat == dealer else 0)])
    head.append(hands[dealer][-1])
    middle = sorted(left.elements())
    return head + list(draws) + middle + list(reversed(replacements))
