"""The public facts of a hand as a person reads them: :class:`Fact`, what :meth:`hupai.rules.Rules.describe_facts`
returns for an observation's public ``extras``.

A rule system keeps its public facts as plain data (``extras``: Yunxiao's ``gold`` kind and ``you`` levels,
Kawuxing's ``liangdao`` flags and ``chain``, Wai Huzi's ``shen`` and ``dead``...). A client should not need to
know what each key means: each rule system describes its own facts as labelled items (a Chinese and an English
label, a readable value, the tiles it shows, the seat it is about), and a client shows them as they come (the
browser table does, ``serve/static/table.js``).

The JSON form (schema version 2: tiles in notation)::

    {"zh": "金", "en": "Gold", "text": "3p: 白板 plays as 3p", "tiles": ["3p"], "seat": null, "hand": false}

``hand`` marks tiles that are the seat's concealed tiles shown face up (Kawuxing's 亮倒, KW-16): a client draws
them in place of as many face-down tiles, never both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import HupaiError
from ..jsonform import bool_in, dict_in, json_text, list_in, obj_in, seat_in, str_in, tile_in, tile_out
from ..tiles import NUM_KINDS

__all__ = ["Fact", "seat_label", "seat_values", "tile_of"]

#: The most tiles a fact may show (a 亮倒 hand is 13; a Wai Huzi hand up to 21).
MAX_FACT_TILES = 32


def seat_label(seat: int) -> str:
    """How a fact names a seat: ``"seat 2"``."""
    return f"seat {seat}"


def seat_values(extras: Mapping[str, Any], key: str) -> list[Any]:
    """``extras[key]`` when it is a per-seat list (or tuple), else no seats: a describe function never guesses."""
    value = extras.get(key)
    return list(value) if isinstance(value, (list, tuple)) else []


def tile_of(extras: Mapping[str, Any], key: str, kinds: int = NUM_KINDS) -> int:
    """``extras[key]`` when it is a tile kind below ``kinds``, else -1 (none)."""
    value = extras.get(key)
    return value if type(value) is int and 0 <= value < kinds else -1


@dataclass(frozen=True)
class Fact:
    """One public fact: ``zh`` and ``en`` label it (``"金"``, ``"Gold"``), ``text`` is its value in words;
    ``tiles`` the tile kinds it shows (a client draws them), ``seat`` the seat it is about (``None``: the whole
    table), ``hand`` whether ``tiles`` are that seat's concealed tiles shown face up (亮倒)."""

    zh: str
    en: str
    text: str
    tiles: tuple[int, ...] = ()
    seat: int | None = None
    hand: bool = False

    def to_dict(self, kinds: int = NUM_KINDS) -> dict[str, Any]:
        """As JSON data, the tiles in notation (a Wai Huzi card's when ``kinds`` is 20)."""
        return {"zh": self.zh, "en": self.en, "text": self.text, "tiles": [tile_out(t, kinds) for t in self.tiles],
                "seat": self.seat, "hand": self.hand}

    def to_json(self, kinds: int = NUM_KINDS) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict(kinds))

    @classmethod
    def from_dict(cls, data: Any, kinds: int = NUM_KINDS) -> Fact:
        """A fact from :meth:`to_dict`'s form (tiles in notation or kinds); a malformed one raises
        :class:`hupai.HupaiError` saying what is wrong."""
        where = "fact"
        data = obj_in(data, where, ("zh", "en", "text"), ("tiles", "seat", "hand"))
        tiles = list_in(data.get("tiles", []), f"{where}.tiles", MAX_FACT_TILES)
        return cls(str_in(data["zh"], f"{where}.zh"), str_in(data["en"], f"{where}.en"),
                   str_in(data["text"], f"{where}.text", 400),
                   tuple(tile_in(t, f"{where}.tiles[{i}]", kinds=kinds) for i, t in enumerate(tiles)),
                   None if data.get("seat") is None else seat_in(data["seat"], f"{where}.seat"),
                   bool_in(data.get("hand", False), f"{where}.hand"))

    @classmethod
    def from_json(cls, text: str | bytes | dict[str, Any], kinds: int = NUM_KINDS) -> Fact:
        """:meth:`from_dict` of JSON text (or of the data itself)."""
        return cls.from_dict(dict_in(text, "fact", error=HupaiError), kinds)
