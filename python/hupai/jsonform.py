"""The JSON contract's building blocks: tiles in notation, and strict readers for data from outside.

Servers exchange :class:`~hupai.observation.Observation` and :class:`~hupai.actions.Action` as JSON. In that
form a tile is its ASCII notation (``"1m"``, ``"7z"``; ints 0..33 are accepted on input), and "none" (a tile or a
seat of -1 in memory) is ``null``. The readers here refuse anything else with a :class:`~hupai.HupaiError`
subclass naming the field, so hostile input never reaches the engine as an unexpected type. The JSON Schema files
under ``hupai/schema/`` (:func:`schema`) describe the same forms for clients.
"""

from __future__ import annotations

import json
import warnings
from importlib import resources
from typing import Any

from .errors import HupaiError
from .notation import family_of, reads, refusal
from .tiles import NUM_KINDS, kind_name
from .tiles import parse as parse_tiles
from .zipai.cards import CARD_NAMES
from .zipai.cards import parse as parse_cards

__all__ = ["SCHEMA_VERSION", "CARD_NAMES", "describe", "tile_out", "tile_in", "int_in", "seat_in", "str_in",
           "bool_in", "list_in", "obj_in", "free_json_in", "schema", "loads", "dumps", "JSONText", "json_text",
           "dict_in"]

#: The version of the observation / action JSON forms; bumped whenever a field is added, removed or changes
#: meaning. 2: tiles as notation, ``null`` for none, melds and patterns as objects.
SCHEMA_VERSION = 2

_NAMES = tuple(kind_name(kind) for kind in range(NUM_KINDS))
_TILE_KIND = {name: kind for kind, name in enumerate(_NAMES)}
_CARD_KIND = {name: kind for kind, name in enumerate(CARD_NAMES)}

#: Bounds on free JSON (``options``, ``extras``) read from outside.
MAX_DEPTH = 8
MAX_NODES = 4096
#: The longest JSON text :func:`loads` reads (an action is under 200 characters, an observation a few KB).
MAX_TEXT = 1 << 20


def tile_out(kind: int, kinds: int = NUM_KINDS) -> str | None:
    """A tile kind as JSON: its notation (a Wai Huzi card's when ``kinds`` is 20), or ``None`` for -1."""
    if kind < 0:
        return None
    return CARD_NAMES[kind] if kinds == len(CARD_NAMES) else _NAMES[kind]


#: Ints beyond this many bits are described by their size, never written out: formatting an int of more than
#: ``sys.get_int_max_str_digits()`` digits raises ValueError (and costs quadratic time below that limit).
_SHOWN_BITS = 128


def describe(value: Any, limit: int = 40) -> str:
    """A bounded description of a value from outside, safe to put in an error message: a short repr for a
    plain scalar, the type's name for anything else (its repr could be huge, deep, or run the caller's code),
    and the size of a huge int (writing its digits out could raise ValueError)."""
    kind = type(value)
    if kind is int and value.bit_length() > _SHOWN_BITS:
        return f"an int of {value.bit_length()} bits"
    if kind in (int, float, bool) or value is None:
        text = repr(value)
    elif kind is str:
        text = repr(value[:limit])  # the slice first: a 1 MB string is not copied to be cut
    else:
        return f"a {kind.__name__}"
    return text if len(text) <= limit else text[:limit - 3] + "..."



def _fail(error: type[HupaiError], where: str, why: str) -> HupaiError:
    return error(f"malformed {where}: {why}")


def tile_in(value: Any, where: str, *, optional: bool = False, error: type[HupaiError] = HupaiError,
            kinds: int = NUM_KINDS) -> int:
    """A tile from JSON, in the family ``kinds`` names (34: mahjong, 20: Wai Huzi's zipai cards), never the
    other's: its notation (``"1m"``, or the Chinese or Unicode name a tile string may use; a card ``"x1"`` or
    ``"一"``) or an int ``0..kinds-1`` (``None`` is -1 when ``optional``). The other family's notation is refused
    by name (:func:`hupai.notation.refusal`): ``"2m"`` and ``"x2"`` share a kind, and a guess would play
    another card."""
    if value is None and optional:
        return -1
    family = family_of(kinds)
    if type(value) is str:
        kind = (_CARD_KIND if family == "zipai" else _TILE_KIND).get(value)
        if kind is not None:
            return kind
        return _symbol_in(value, where, family, error)
    if type(value) is int and 0 <= value < kinds:
        return value
    raise _fail(error, where, f"{describe(value)} is not a tile: {reads(family)}, or a kind 0..{kinds - 1}")


def _symbol_in(value: str, where: str, family: str, error: type[HupaiError]) -> int:
    """One tile written otherwise than in ASCII (二万, 🀄; a card 二, 贰), read by the family's own parser."""
    if len(value) <= 4:  # the longest single name (红中, 小一, 东风) is two characters
        try:
            found = (parse_cards if family == "zipai" else parse_tiles)(value)
        except HupaiError:
            found = []
        if len(found) == 1:
            return found[0]
    why = refusal(value, family) or f"{describe(value)} is not a tile: {reads(family)}"
    raise _fail(error, where, why)


def int_in(value: Any, where: str, low: int, high: int, *, error: type[HupaiError] = HupaiError) -> int:
    """An int in ``low..high`` (bools refused)."""
    if type(value) is not int or not low <= value <= high:
        raise _fail(error, where, f"{describe(value)} is not an int in {low}..{high}")
    return value


def seat_in(value: Any, where: str, players: int = 4, *, optional: bool = False,
            error: type[HupaiError] = HupaiError) -> int:
    """A seat 0..players-1 (``None`` is -1 when ``optional``)."""
    if value is None and optional:
        return -1
    return int_in(value, where, 0, players - 1, error=error)


def str_in(value: Any, where: str, limit: int = 64, *, error: type[HupaiError] = HupaiError) -> str:
    if type(value) is not str or len(value) > limit:
        raise _fail(error, where, f"{describe(value)} is not a string of at most {limit} characters")
    return value


def bool_in(value: Any, where: str, *, error: type[HupaiError] = HupaiError) -> bool:
    if type(value) is not bool:
        raise _fail(error, where, f"{describe(value)} is not true or false")
    return value


def list_in(value: Any, where: str, limit: int, *, error: type[HupaiError] = HupaiError) -> list[Any]:
    if type(value) is not list or len(value) > limit:
        raise _fail(error, where, f"{describe(value)} is not a list of at most {limit} items")
    return value


def obj_in(value: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = (), *,
           error: type[HupaiError] = HupaiError) -> dict[str, Any]:
    """A JSON object with every ``required`` key, perhaps some ``optional`` ones, and no other."""
    if type(value) is not dict:
        raise _fail(error, where, f"{describe(value)} is not an object")
    missing = [key for key in required if key not in value]
    if missing:
        raise _fail(error, where, f"missing {', '.join(missing)}")
    allowed = set(required) | set(optional)
    unknown = [key for key in value if key not in allowed]
    if unknown:
        names = ", ".join(describe(key) for key in unknown[:5])
        raise _fail(error, where, f"unknown field(s) {names}")
    return value


def free_json_in(value: Any, where: str, *, error: type[HupaiError] = HupaiError) -> Any:
    """Plain JSON (objects with string keys, lists, strings, numbers, booleans, null), bounded in depth and
    size; walked with an explicit stack (no recursion on input). Returns ``value``."""
    stack = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES or depth > MAX_DEPTH:
            raise _fail(error, where, f"more than {MAX_NODES} values or nested more than {MAX_DEPTH} deep")
        kind = type(item)
        if kind is dict:
            for key, sub in item.items():
                if type(key) is not str:
                    raise _fail(error, where, f"key {describe(key)} is not a string")
                stack.append((sub, depth + 1))
        elif kind is list:
            stack.extend((sub, depth + 1) for sub in item)
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                raise _fail(error, where, "NaN and infinities are not JSON")
        elif kind is int:
            if not -(1 << 63) <= item < (1 << 64):  # what validate.check_free_json allows; json.dumps could fail
                raise _fail(error, where, "an int beyond 64 bits")
        elif kind not in (str, int, bool, type(None)):
            raise _fail(error, where, f"{describe(item)} is not a JSON value")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(text: str | bytes | bytearray, where: str, *, error: type[HupaiError] = HupaiError) -> Any:
    """Parse JSON text from outside: bounded in size, NaN/Infinity refused, any failure an ``error``."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise _fail(error, where, f"expected JSON text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _fail(error, where, f"longer than {MAX_TEXT} characters")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as why:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise _fail(error, where, f"not JSON ({str(why)[:80]})") from None


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema shipped with the package: ``"observation"``, ``"action"`` or ``"log"``; or
    ``"spectator"``, derived from the observation's: :meth:`hupai.Game.spectator_view`'s form."""
    if name == "spectator":
        return _spectator_schema(schema("observation"))
    if name not in ("observation", "action", "log"):
        raise HupaiError(f"unknown schema {name!r} (observation, action, log, spectator)")
    text = resources.files("hupai").joinpath("schema", f"{name}.schema.json").read_text(encoding="utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def _spectator_schema(observation: dict[str, Any]) -> dict[str, Any]:
    """A seat's observation schema made a spectator's view's: no seat, no hand, no drawn tile, no legal actions,
    no private facts (the rest is what every seat sees alike)."""
    observation["$id"] = observation["$id"].replace("observation.schema", "spectator.schema")
    observation["title"] = "hupai spectator view (schema version 2)"
    observation["description"] = ("What every seat may know, as Game.spectator_view returns it: an observation's "
                                  "form with no seat, hand, drawn tile, legal actions or private facts.")
    properties = observation["properties"]
    properties.update(seat={"type": "null"}, hand={"type": "array", "maxItems": 0}, drawn={"type": "null"},
                      drawn_from={"const": ""}, legal_actions={"type": "array", "maxItems": 0})
    del properties["private"]
    return observation


# -- the serialization convention -----------------------------------------------------------------------------
# Every serializable type has ``to_dict() -> dict``, ``to_json() -> str``, ``from_dict(dict)`` and
# ``from_json(str | dict)``. Before that, most ``to_json()`` returned the dict: :class:`JSONText` keeps such code
# working for one deprecation period.

def dumps(data: Any) -> str:
    """JSON text as every ``to_json()`` writes it: compact, keys in the order the dict has them, UTF-8 text kept
    (Chinese pattern names stay readable)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _deprecated(what: str) -> None:
    warnings.warn(f"to_json() returns JSON text (a str) now; {what} on it reads the dict it used to return, and "
                  "will stop working: call to_dict() for the dict", DeprecationWarning, stacklevel=3)


class JSONText(str):
    """What ``to_json()`` returns: the JSON text, a plain ``str`` for everything a str does (``json.loads``,
    writing it to a file or socket, slicing, ``len``, iteration, ``==`` another str).

    Used as the dict ``to_json()`` returned before (``text["hand"]``, ``.get``, ``.keys``, ``.values``,
    ``.items``, ``.copy``, ``dict(text)``, ``{**text}``, ``key in text``, ``text == a_dict``) it warns
    (:class:`DeprecationWarning`) and acts as that dict. Two old uses cannot be kept: ``json.dumps(text)``
    writes the text as a JSON string (the encoder reads a str's characters directly, so no str subclass can
    change that: call ``to_dict()``; the ``from_json`` readers still read such doubly quoted text, with a
    warning), and ``sub in text`` answers as the dict did (is it a key?), warning where the text would answer
    otherwise (a substring that is no key; ``text.find(sub) >= 0`` is the substring test).
    """

    __slots__ = ("_data",)
    _data: Any

    def __new__(cls, text: str, data: Any) -> JSONText:
        self = super().__new__(cls, text)
        self._data = data
        return self

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (int, slice)):  # str indexing, unchanged
            return str.__getitem__(self, key)
        _deprecated(f"[{describe(key)}]")
        return self._data[key]

    def __contains__(self, key: Any) -> bool:
        as_dict = key in self._data
        if not isinstance(key, str) or as_dict != str.__contains__(self, key):
            _deprecated("'in'")  # the dict's answer and the text's differ: the dict's, as before, for now
        return as_dict

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (dict, list)):
            _deprecated("comparing it with a " + type(other).__name__)
            return bool(self._data == other)
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = str.__hash__

    def get(self, key: Any, default: Any = None) -> Any:
        _deprecated(".get()")
        return self._data.get(key, default)

    def keys(self) -> Any:
        _deprecated(".keys()")
        return self._data.keys()

    def values(self) -> Any:
        _deprecated(".values()")
        return self._data.values()

    def items(self) -> Any:
        _deprecated(".items()")
        return self._data.items()

    def copy(self) -> Any:
        _deprecated(".copy()")
        return self._data.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (JSONText, (str(self), self._data))


def json_text(data: Any) -> str:
    """``data`` (a ``to_dict()`` result) as a ``to_json()`` returns it: :func:`dumps` of it, as a
    :class:`JSONText`."""
    return JSONText(dumps(data), data)


def dict_in(data: Any, where: str, *, error: type[HupaiError] = HupaiError) -> Any:
    """What a ``from_json`` was given, as data: JSON text (``str``, ``bytes``) parsed by :func:`loads`, anything
    else (a dict) as it is, for ``from_dict`` to check.

    Text whose JSON is itself a string is what ``json.dumps(x.to_json())`` wrote (the old way to send the dict
    ``to_json()`` returned, which quotes the new text once more): read with a :class:`DeprecationWarning`, so a
    sender not yet moved to ``to_dict()`` still reaches a reader here."""
    if isinstance(data, (str, bytes, bytearray)):
        data = loads(data, where, error=error)
        if type(data) is str and data.lstrip()[:1] in ("{", "["):
            warnings.warn(f"{where}: JSON text quoted twice, as json.dumps(x.to_json()) writes it; send x.to_json() "
                          "or json.dumps(x.to_dict())", DeprecationWarning, stacklevel=3)
            data = loads(data, where, error=error)
    return data

