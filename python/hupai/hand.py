"""A player's hand: concealed tiles, declared melds and jokers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .errors import InvalidHand
from .tiles import NUM_KINDS, format_tiles

__all__ = ["Meld", "MeldType"]

MeldType = Literal["chow", "pung", "kong"]


@dataclass(frozen=True)
class Meld:
    """A declared meld.

    ``tiles`` are its kinds in ascending order (3 for chow/pung, 4 for a kong). ``concealed`` is True only for a
    暗杠. ``claimed_from`` is the seat whose discard completed it (None for 暗杠 and self-drawn kongs);
    ``added`` is True for a 补杠 (a kong made by adding the fourth tile to one's own exposed pung).
    """

    type: MeldType
    tiles: tuple[int, ...]
    concealed: bool = False
    claimed_from: int | None = None
    added: bool = False
    claimed_tile: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        size = {"chow": 3, "pung": 3, "kong": 4}.get(self.type)
        if size is None:
            raise InvalidHand(f"unknown meld type {self.type!r} (use 'chow', 'pung' or 'kong')")
        if len(self.tiles) != size or any(not 0 <= k < NUM_KINDS for k in self.tiles):
            raise InvalidHand(f"a {self.type} needs {size} tiles in 0..33, got {self.tiles!r}")
        first = self.tiles[0]
        if self.type == "chow":
            if first >= 27 or first % 9 > 6 or tuple(self.tiles) != (first, first + 1, first + 2):
                raise InvalidHand(f"{format_tiles(list(self.tiles))} is not a run of one suit")
        elif len(set(self.tiles)) != 1:
            raise InvalidHand(f"a {self.type} needs identical tiles, got {format_tiles(list(self.tiles))}")

    @property
    def kind(self) -> int:
        """The first (lowest) kind of the meld."""
        return self.tiles[0]

    @property
    def is_triplet(self) -> bool:
        """Pungs and kongs."""
        return self.type != "chow"

    def __str__(self) -> str:
        return f"[{format_tiles(list(self.tiles))}]"
