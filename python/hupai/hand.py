"""A player's hand: concealed tiles, declared melds and jokers; :func:`parse_hand` reads a whole hand from
notation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .errors import InvalidHand
from .tiles import NUM_KINDS, format_tiles, parse

__all__ = ["Meld", "MeldType", "ParsedHand", "parse_hand", "implied_melds", "MELD_WIDTH", "MELD_CODES", "NO_SEAT"]

MeldType = Literal["chow", "pung", "kong"]

#: The width of a meld's record (:attr:`Meld.record`): ``type first concealed added source claimed``, a byte each.
MELD_WIDTH = 6
#: A record's type byte per meld type: the place of the letter a compact snapshot writes for it (``c``, ``p``,
#: ``k``) among its tile characters ``0-9a-x``, so that a record and its snapshot token are one ``bytes.translate``
#: apart, both ways, as a tile string and its tiles are (hupai.game.state.compact).
MELD_CODES: dict[MeldType, int] = {"chow": 12, "pung": 25, "kong": 20}
#: A record's byte for no source seat and no claimed tile.
NO_SEAT = 255
# Per meld type: its size and type byte (one lookup in Meld's constructor).
_SHAPES = {name: (4 if name == "kong" else 3, code) for name, code in MELD_CODES.items()}
_TYPE_NAMES = {code: name for name, code in MELD_CODES.items()}
_CHOW = MELD_CODES["chow"]
_KINDS = frozenset(range(NUM_KINDS))
# A record's source byte per claimed_from, and its claimed byte per claimed_tile (None: NO_SEAT); anything else is
# no meld's (a seat is 0..7: a table has at most 4).
_SOURCE_BYTES: dict[int | None, int] = {None: NO_SEAT, **{seat: seat for seat in range(8)}}
_CLAIMED_BYTES: dict[int | None, int] = {None: NO_SEAT, **{kind: kind for kind in range(NUM_KINDS)}}
# The types a source seat or a claimed tile may have (an int or None: not a bool, nor a float equal to an int).
_SEAT_TYPES = frozenset({int, type(None)})


@dataclass(frozen=True)
class Meld:
    """A declared meld.

    ``tiles`` are its kinds in ascending order (3 for chow/pung, 4 for a kong). ``concealed`` is True only for a
    暗杠. ``claimed_from`` is the seat whose discard completed it (None for 暗杠 and self-drawn kongs);
    ``added`` is True for a 补杠 (a kong made by adding the fourth tile to one's own exposed pung).

    ``record`` is the meld as :data:`MELD_WIDTH` bytes, made once here (a table keeps its melds as these records,
    ``Table.meld_records``): the type byte (:data:`MELD_CODES`), the first kind, ``concealed`` and ``added`` as
    0/1, the source seat and the claimed tile (:data:`NO_SEAT` for none). Not compared: it holds nothing the
    fields do not.
    """

    type: MeldType
    tiles: tuple[int, ...]
    concealed: bool = False
    claimed_from: int | None = None
    added: bool = False
    claimed_tile: int | None = field(default=None, compare=False)
    record: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        tiles = self.tiles
        shape = _SHAPES.get(self.type)
        if shape is None:
            raise InvalidHand(f"unknown meld type {self.type!r} (use 'chow', 'pung' or 'kong')")
        size, code = shape
        if len(tiles) != size or not _KINDS.issuperset(tiles):
            raise InvalidHand(f"a {self.type} needs {size} tiles in 0..33, got {tiles!r}")
        first = tiles[0]
        if code == _CHOW:
            if first >= 27 or first % 9 > 6 or tuple(tiles) != (first, first + 1, first + 2):
                raise InvalidHand(f"{format_tiles(list(tiles))} is not a run of one suit")
        elif tiles.count(first) != size:
            raise InvalidHand(f"a {self.type} needs identical tiles, got {format_tiles(list(tiles))}")
        source, claimed = self.claimed_from, self.claimed_tile
        try:  # (a bad seat or tile: -1 from the lookups, which bytes refuses; True and 1.0 look up as 1: refused)
            if type(source) not in _SEAT_TYPES or type(claimed) not in _SEAT_TYPES:
                raise TypeError
            record = bytes((code, first, 1 if self.concealed else 0, 1 if self.added else 0,
                            _SOURCE_BYTES.get(source, -1), _CLAIMED_BYTES.get(claimed, -1)))
        except (TypeError, ValueError):
            raise InvalidHand(f"a meld's claimed_from must be a seat 0..7 and its claimed_tile a kind 0..33 (or "
                              f"None), got {self.claimed_from!r} and {self.claimed_tile!r}") from None
        object.__setattr__(self, "record", record)  # (frozen: set once, here)

    @classmethod
    def from_record(cls, record: bytes) -> Meld:
        """The meld whose :attr:`record` is ``record`` (a new Meld); InvalidHand if it is no meld's."""
        if len(record) != MELD_WIDTH or record[0] not in _TYPE_NAMES or record[2] > 1 or record[3] > 1:
            raise InvalidHand(f"{bytes(record)!r} is not a meld record")
        code, first, concealed, added, source, claimed = record
        name = _TYPE_NAMES[code]
        tiles = (first, first + 1, first + 2) if code == _CHOW else (first,) * _SHAPES[name][0]
        return cls(name, tiles, concealed == 1, None if source == NO_SEAT else source, added == 1,
                   None if claimed == NO_SEAT else claimed)

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


@dataclass(frozen=True)
class ParsedHand:
    """A hand read by :func:`parse_hand`.

    ``concealed``: the concealed tiles in the order written; ``melds``: the melds written in brackets;
    ``implied``: melds set aside without being written, inferred from the size (:func:`implied_melds`);
    ``meld_count`` = both, what the analysis calls take as ``melds``.
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    implied: int = 0

    @property
    def meld_count(self) -> int:
        return len(self.melds) + self.implied

    @property
    def size(self) -> int:
        """Tiles held, a kong counting 3 (13 waiting, 14 complete)."""
        return len(self.concealed) + 3 * self.meld_count

    def __str__(self) -> str:
        parts = [format_tiles(list(self.concealed))] if self.concealed else []
        for meld in self.melds:
            parts.append(f"({format_tiles(list(meld.tiles))})" if meld.concealed else str(meld))
        return " ".join(parts)


def implied_melds(tiles: int) -> int:
    """How many melds a concealed part of ``tiles`` tiles has set aside, as the ``mahjong`` package infers
    it: 13 or 14 tiles none, 10 or 11 one, ... 1 or 2 four. Anything else raises InvalidHand."""
    for melds in range(5):
        if tiles in (13 - 3 * melds, 14 - 3 * melds):
            return melds
    raise InvalidHand(f"{tiles} tiles is no hand size (13 or 14, less 3 per meld not written; a written meld "
                      f"counts 3)")


def parse_hand(text: str, *, jokers: int = 0, implied: int | None = None) -> ParsedHand:
    """Read a whole hand: concealed tiles in any notation :func:`hupai.parse` reads, and melds in brackets.

    - ``[456p]`` an exposed chow, ``[777z]`` an exposed pung, ``[7777z]`` an exposed kong (明杠);
    - ``(7777z)`` a concealed kong (暗杠), its four tiles in parentheses;
    - the rest, anywhere between the melds, is the concealed part, in the order written.

    Melds not written are inferred from the size (:func:`implied_melds`, as the ``mahjong`` package does:
    ``"123m456p789s1z"`` is 10 tiles, so one meld is set aside), the written ones counting 3 tiles each and
    ``jokers`` (wild tiles held beside the written ones) one each. ``implied`` gives the number of unwritten
    melds instead (no size check then).

    >>> hand = parse_hand("123m [456p] (7777z) 5s")
    >>> hand.concealed, [str(m) for m in hand.melds], hand.meld_count
    ((0, 1, 2, 22), ['[456p]', '[7777z]'], 3)
    """
    if not isinstance(text, str):
        raise InvalidHand(f"expected a hand string, got {type(text).__name__}")
    concealed: list[int] = []
    melds: list[Meld] = []
    i, n = 0, len(text)
    while i < n:
        opener = text[i]
        if opener in "[(":
            closer = "]" if opener == "[" else ")"
            end = text.find(closer, i + 1)
            if end < 0:
                raise InvalidHand(f"{opener!r} at position {i} of {text!r} is never closed by {closer!r}")
            melds.append(_meld(parse(text[i + 1:end]), opener == "(", text, i))
            i = end + 1
        elif opener in "])":
            raise InvalidHand(f"{opener!r} at position {i} of {text!r} closes nothing")
        else:
            end = min((j for j in (text.find(c, i) for c in "[]()") if j >= 0), default=n)
            concealed.extend(parse(text[i:end]))
            i = end
    if type(jokers) is not int or not 0 <= jokers <= 14:
        raise InvalidHand(f"jokers={jokers!r} is not a count of tiles 0..14")
    size = len(concealed) + 3 * len(melds) + jokers
    if len(melds) > 4 or size > 14:
        raise InvalidHand(f"{text!r} holds {size} tiles in {len(melds)} melds (a kong counts 3): a hand holds "
                          f"at most 14 in at most 4 melds")
    if implied is None:
        implied = implied_melds(size)
    elif type(implied) is not int or not 0 <= implied <= 4 - len(melds):
        raise InvalidHand(f"implied={implied!r}: at most 4 melds in all, {len(melds)} written")
    return ParsedHand(tuple(concealed), tuple(melds), implied)


def _meld(kinds: list[int], concealed: bool, text: str, at: int) -> Meld:
    where = f"the meld at position {at} of {text!r}"
    ordered = tuple(sorted(kinds))
    if concealed:
        if len(kinds) != 4 or len(set(kinds)) != 1:
            raise InvalidHand(f"{where}: parentheses hold a concealed kong, four identical tiles")
        return Meld("kong", ordered, concealed=True)
    if len(kinds) == 4:
        return Meld("kong", ordered)
    if len(kinds) == 3 and len(set(kinds)) == 1:
        return Meld("pung", ordered)
    if len(kinds) == 3:
        return Meld("chow", ordered)  # Meld checks it is a run of one suit
    raise InvalidHand(f"{where}: a meld is 3 tiles (chow, pung) or 4 (kong), got {len(kinds)}")
