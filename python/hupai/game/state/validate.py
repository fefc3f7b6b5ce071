"""Checks on saved games: what :meth:`Game.from_snapshot` and :meth:`Game.replay` accept (issue 9.2).

A snapshot or log comes from a database, a file or a network peer, so it is read as hostile: it is loaded only
if it has exactly the shape :meth:`~hupai.game.Game.snapshot` / :meth:`~hupai.game.Game.to_json` write, and
anything else raises :class:`~hupai.InvalidState` naming the field (``snapshot.table.hands[2][5]``), never a
TypeError, KeyError or RecursionError, and never a game that fails later.

What is checked, cheapest first (every check reads each value once; nothing recurses on input data, so a
10,000-deep nesting costs one type test):

- **Size and depth**: JSON text over :data:`MAX_TEXT` characters is refused before parsing; lists have
  bounded lengths (hands of 34, at most :data:`MAX_ACTIONS` actions, ...); ``extras`` and ``options`` (free
  JSON) at most :data:`MAX_DEPTH` deep and :data:`MAX_NODES` values.
- **Version**: the ``format`` tag; a known family with another version is refused by version. Snapshots of
  format 1 (the full table) and format 2 (a mahjong table's compact form, :mod:`hupai.game.state.compact`) are read.
- **Rules and options**: a known rule system; unknown options or values are refused, an option left out takes
  its default (what a log written before that option existed means).
- **Schema and types**: exact key sets, exact types (a bool is not an int, a float is not a tile), ranges.
- **Setup**: seed, dealer, winds; the table's wall is the wall the setup deals (seeded shuffle or given wall).
- **Tile conservation**: every tile of ``rules.tiles()`` is in exactly one place: the wall's live range, a
  hand, a meld, a discard pile, or a rule-specific place (Yunxiao's gold indicator, ``extras["indicator"]``;
  after a robbed kong, the robbed tile). A Yunxiao chow is recorded in effective kinds (YX-7: a 白板 playing
  as the gold's kind), so there a 白板 may be counted as the gold.
- **Seats and phase**: hand sizes, the turn seat, the discard under claim is the discarder's last, a claim or
  rob window has seats still to answer and each answer is one of its options; meld order lists every meld.
- **Log (cheap part)**: the actions are well formed and each seat's discards match ``discards_made`` and its
  pile (minus tiles claimed from it); the last discard, the seat to act after it, the answers of an open
  window and the kong being robbed are the ones the last actions name.
- **Rules**: the draws the wall has given, the melds made (``calls``), zero-sum payments, the open claim or rob
  window is the one the rules open (recomputed), a pre-draw phase has its declaration on offer, and a rule
  system's own facts (Yunxiao's gold, kong count and 游 levels, YX-6/23/26).

A snapshot's checks are run by :func:`hupai.game.state.consistency.check_snapshot`: these first, then the table
against its wall, actions and rules (that module). Rule-specific facts (Yunxiao's) are checked there
by class until rule packages declare their own state checks (issue 8.6).

The complete log check (replay the setup and actions, compare the tables) costs a replay, about 5 times a
structural restore; :meth:`Game.from_snapshot` runs it when asked (``verify=True``) and always for a finished
hand (its result comes from that replay anyway). It is the only check that sees a state edited consistently
against its own log (two seats' hands swapped).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..._core import compact_actions, plain_json
from ...actions import KINDS
from ...errors import HupaiError, InvalidState
from ...jsonform import describe
from ...rules.base import Rules
from ..mahjong import claims

__all__ = ["MAX_TEXT", "MAX_ACTIONS", "MAX_DEPTH", "MAX_NODES", "MAX_SEED", "MAX_HANDS", "MAX_SCORE", "load_json",
           "check_setup", "check_log", "check_actions", "check_match", "build_rules",
           "check_version"]

#: The longest JSON text accepted (characters). Real logs are under 20 KB, snapshots under 8 KB.
MAX_TEXT = 1 << 20
#: The most actions one hand may hold (real hands take under 200).
MAX_ACTIONS = 4096
#: Free JSON (``extras``, ``options``): nesting depth and number of values.
MAX_DEPTH = 16
MAX_NODES = 10_000
#: Seeds are 64-bit (what :func:`~hupai.game.state.wall.hand_seed` makes and ``secrets.randbits(64)`` draws).
MAX_SEED = (1 << 64) - 1
#: The most hands a stored match may have played, and the largest score a seat may hold (both far past play).
MAX_HANDS = 1_000_000
MAX_SCORE = 1 << 53

_PHASES = frozenset({"turn", "claim", "rob", "predraw", "over"})
_TABLE_KEYS = frozenset({
    "n", "dealer", "first_dealer", "round_wind", "seat_winds", "wall", "hands", "melds", "discards", "phase",
    "turn_seat", "drawn", "drawn_from", "kong_from", "last_discard", "discarder", "kong_tile", "kong_seat",
    "pending", "answers", "draws", "discards_made", "calls", "meld_order", "missed", "missed_all", "extras",
    "payments",
})
_SETUP_KEYS = frozenset({"seed", "dealer", "round_wind", "first_dealer"})
_SETUP_OPTIONAL = frozenset({"wall", "claim_window"})
_KONG_FLAGS = frozenset({"exposed", "concealed", "added"})
_KIND_NAMES = tuple(sorted(KINDS))
_KONG_FLAG_NAMES = tuple(sorted(_KONG_FLAGS))
_CLAIM_KINDS = frozenset({"win", "pung", "chow", "kong", "pass"})
_MAX_FLAG = 40  # as actions.coerce
_INT = {int}
_RUN_TYPES = frozenset({list, tuple})


def _fail(where: str, message: str) -> InvalidState:
    return InvalidState(f"{where}: {message}")


def _show(value: Any) -> str:
    """A short, safe rendering of a hostile value (never a deep repr, nor a huge int's digits)."""
    return describe(value, 30)


def load_json(text: str | bytes | bytearray, what: str) -> Any:
    """Parse JSON text with the size limit; malformed or too deep text raises InvalidState."""
    if len(text) > MAX_TEXT:
        raise _fail(what, f"{len(text)} characters, more than the {MAX_TEXT} a {what} may have")
    try:
        return json.loads(text)
    except RecursionError:
        raise _fail(what, "nested too deeply") from None
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, int digits over the interpreter's limit
        raise _fail(what, f"not valid JSON ({error})") from None


def _int(value: Any, where: str, low: int, high: int) -> int:
    if type(value) is not int:  # noqa: E721 (exactly int: a bool or an int subclass is not a count)
        raise _fail(where, f"must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise _fail(where, f"{_show(value)} is outside {low}..{high}")
    return value


def _ints(values: Any, where: str, low: int, high: int, length: int | None = None,
          limit: int = MAX_ACTIONS) -> Sequence[int]:
    """A list of ints in ``low..high``, checked in bulk (C loops); the slow loop only names the bad entry."""
    values = _list(values, where, length, limit)
    if values and not (set(map(type, values)) == _INT and low <= min(values) and max(values) <= high):
        for i, value in enumerate(values):
            _int(value, f"{where}[{i}]", low, high)
    return values  # type: ignore[no-any-return]


def _str(value: Any, where: str, limit: int = _MAX_FLAG) -> str:
    if type(value) is not str:  # noqa: E721
        raise _fail(where, f"must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise _fail(where, f"a string of {len(value)} characters, more than {limit}")
    return value


def _list(value: Any, where: str, length: int | None = None, limit: int = MAX_ACTIONS) -> Sequence[Any]:
    # Tuples too: a snapshot taken in-process holds actions (named tuples) as they stand.
    if not isinstance(value, (list, tuple)):
        raise _fail(where, f"must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise _fail(where, f"must have {length} entries, has {len(value)}")
    if len(value) > limit:
        raise _fail(where, f"{len(value)} entries, more than {limit}")
    return value


def _dict(value: Any, where: str, keys: frozenset[str], optional: frozenset[str] = frozenset()) -> Mapping[str, Any]:
    if type(value) is not dict and not isinstance(value, Mapping):  # noqa: E721 (the exact test is cheaper)
        raise _fail(where, f"must be an object, got {type(value).__name__}")
    if not keys <= value.keys():
        raise _fail(where, f"missing field(s) {', '.join(sorted(keys - value.keys()))}")
    if len(value) > len(keys):
        unknown = [k if type(k) is str else _show(k) for k in value if k not in keys and k not in optional]
        if unknown:
            raise _fail(where, f"unknown field(s) {', '.join(sorted(unknown)[:5])}")
    return value


def check_free_json(value: Any, where: str) -> None:
    """Plain JSON (dict with string keys, list, str, int, float, bool, None), bounded in depth and size: a dict
    in one core pass (:data:`_usual`, recursing at most MAX_DEPTH deep), else (or if that says no, to name what
    is wrong) walked with an explicit stack (no recursion on input)."""
    if type(value) is dict and _usual(value, MAX_DEPTH, MAX_NODES):  # noqa: E721
        return
    stack = [(value, where, 0)]
    nodes = 0
    while stack:
        item, path, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise _fail(where, f"more than {MAX_NODES} values")
        if depth > MAX_DEPTH:
            raise _fail(path, f"nested more than {MAX_DEPTH} deep")
        kind = type(item)
        if kind is dict:
            for key, sub in item.items():
                if type(key) is not str:  # noqa: E721
                    raise _fail(path, f"key {_show(key)} is not a string")
                stack.append((sub, f"{path}.{key}", depth + 1))
        elif kind is list:
            stack.extend((sub, f"{path}[{i}]", depth + 1) for i, sub in enumerate(item))
        elif kind is int:
            if not -(1 << 63) <= item < (1 << 64):
                raise _fail(path, "an int beyond 64 bits")
        elif kind not in (str, float, bool) and item is not None:
            raise _fail(path, f"{kind.__name__} is not a JSON type")


#: The quick test of :func:`check_free_json` (value, MAX_DEPTH, MAX_NODES): one core pass over plain JSON data
#: that accepts exactly what the walk accepts; on False the walk names what is wrong. Every restore checks the
#: options and the rules' extras.
_usual = plain_json


def check_version(data: Any, expected: str, what: str) -> Mapping[str, Any]:
    """The data is an object whose ``format`` is ``expected``; another version of the same family is refused
    by version."""
    if type(data) is not dict and not isinstance(data, Mapping):  # noqa: E721 (the exact test is cheaper)
        raise _fail(what, f"must be a JSON object, got {type(data).__name__}")
    tag = data.get("format")
    if tag != expected:
        family = expected.rsplit("/", 1)[0]
        if isinstance(tag, str) and tag.startswith(family + "/"):
            raise _fail(f"{what}.format", f"version {tag[len(family) + 1:][:20]!r} is not supported "
                                          f"(this hupai reads {expected!r})")
        shown = tag[:40] if isinstance(tag, str) else type(tag).__name__
        raise _fail(f"{what}.format", f"not a {expected!r} {what}: {shown!r}")
    return data


def build_rules(data: Mapping[str, Any], what: str, rules: Rules | None) -> Rules:
    """The rules object named by the data (or the given one, which must match the data's name and options)."""
    if rules is not None and not isinstance(rules, Rules):
        raise HupaiError(f"rules must be a Rules object or None, got {type(rules).__name__}")
    name = data.get("rules")
    if type(name) is not str or len(name) > _MAX_FLAG:  # noqa: E721 (the message built only for a bad name)
        name = _str(name, f"{what}.rules")
    options = data.get("options")
    if not isinstance(options, dict):
        raise _fail(f"{what}.options", f"must be an object, got {type(options).__name__}")
    if rules is not None:
        if name != rules.name:
            raise _fail(f"{what}.rules", f"{name[:40]!r} is not the given rules' {rules.name!r}")
        if options != rules.options_dict():  # (equal: plain JSON already, the rules' own)
            check_free_json(options, f"{what}.options")
            raise _fail(f"{what}.options", "differ from the given rules' options")
        return rules
    check_free_json(options, f"{what}.options")
    # repr, not json.dumps (several times the cost on every restore): checked plain JSON types only, so the repr is
    # as type-exact as the JSON text (1, 1.0 and True are different options). Sorted by key (distinct strs: the
    # values are never compared), as a log's sorted JSON and a snapshot's options in the rules' order must meet.
    key = (name, repr(sorted(options.items())))
    with _RULES_LOCK:
        shared = _RULES.get(key)
        if shared is not None:
            _RULES.move_to_end(key)
            return shared
    from ... import rules as rules_module  # (here: the import statement costs a call on every restore)

    try:
        built = rules_module.get(name, options)
    except HupaiError as error:
        raise _fail(f"{what}.options" if "option" in str(error) else f"{what}.rules", str(error)) from None
    with _RULES_LOCK:
        shared = _RULES.setdefault(key, built)  # another thread may have built the same rules meanwhile
        _RULES.move_to_end(key)
        while len(_RULES) > RULES_CACHE_SIZE:
            _RULES.popitem(last=False)
    return shared


#: The rules objects built lately for a saved game's rule name and options, shared by every game restored or
#: replayed with them (a server restores a table per request; building the rules was a tenth of a restore). A
#: :class:`Rules` object holds no per-game state: its options are frozen, its attributes are set once when it is
#: built, and its only cache (Yunxiao's waits memo) is of a pure function, behind ``functools.lru_cache``'s lock.
RULES_CACHE_SIZE = 16
_RULES: OrderedDict[tuple[str, str], Rules] = OrderedDict()
_RULES_LOCK = threading.Lock()


def check_setup(rules: Rules, setup: Any, where: str) -> dict[str, Any]:
    """The setup block; returns a private copy."""
    setup = _dict(setup, where, _SETUP_KEYS, _SETUP_OPTIONAL)
    n = rules.num_players
    seed, dealer, round_wind, first_dealer = setup["seed"], setup["dealer"], setup["round_wind"], setup["first_dealer"]
    if not (type(seed) is int and type(dealer) is int and type(round_wind) is int  # noqa: E721
            and type(first_dealer) is int and 0 <= seed <= MAX_SEED and 0 <= dealer < n  # noqa: E721
            and 0 <= round_wind <= 3 and 0 <= first_dealer < n):
        _int(seed, f"{where}.seed", 0, MAX_SEED)  # (one of these names what is wrong)
        _int(dealer, f"{where}.dealer", 0, n - 1)
        _int(round_wind, f"{where}.round_wind", 0, 3)
        _int(first_dealer, f"{where}.first_dealer", 0, n - 1)
    out: dict[str, Any] = {"seed": seed, "dealer": dealer, "round_wind": round_wind, "first_dealer": first_dealer}
    if "wall" in setup:
        tiles = rules.tiles()
        wall = _list(setup["wall"], f"{where}.wall", len(tiles))
        for i, tile in enumerate(wall):
            _int(tile, f"{where}.wall[{i}]", 0, 33)
        if sorted(wall) != sorted(tiles):
            raise _fail(f"{where}.wall", "does not hold exactly the rule system's tiles")
        out["wall"] = list(wall)
    if "claim_window" in setup:
        window = setup["claim_window"]
        if type(window) is not str or window not in claims.CLAIM_WINDOWS:  # noqa: E721
            raise _fail(f"{where}.claim_window", f"{_show(window)} is not one of {claims.CLAIM_WINDOWS}")
        out["claim_window"] = window
    return out


def check_actions(actions: Any, where: str, n: int, compact: bool) -> list[int]:
    """The actions' shapes (compact lists in a snapshot, JSON objects in a log); returns discards per seat."""
    actions = _list(actions, where)
    if compact:
        fast = _compact_actions(actions, n)
        if fast is not None:
            return fast
    discards = [0] * n
    for i, action in enumerate(actions):
        if compact:
            if not isinstance(action, (list, tuple)) or len(action) != 5:
                raise _fail(f"{where}[{i}]", "must be a list [kind, seat, tile, tiles, flag]")
            kind, seat, tile, tiles, flag = action
        else:
            if not isinstance(action, Mapping):
                raise _fail(f"{where}[{i}]", f"must be an object, got {type(action).__name__}")
            if not action.keys() <= {"kind", "seat", "tile", "tiles", "flag"}:
                raise _fail(f"{where}[{i}]", "unknown field(s)")
            kind, seat = action.get("kind"), action.get("seat")
            tile, tiles, flag = action.get("tile", -1), action.get("tiles", []), action.get("flag", "")
            if tile == -1 and "tile" in action or not tiles and "tiles" in action or not flag and "flag" in action:
                raise _fail(f"{where}[{i}]", "an unset field is written (to_json leaves it out)")
        if type(kind) is not str or kind not in KINDS:  # noqa: E721
            raise _fail(f"{where}[{i}]", f"kind {_show(kind)} is not one of {sorted(KINDS)}")
        _int(seat, f"{where}[{i}].seat", 0, n - 1)
        _int(tile, f"{where}[{i}].tile", -1, 33)
        for j, t in enumerate(_list(tiles, f"{where}[{i}].tiles", limit=4)):
            _int(t, f"{where}[{i}].tiles[{j}]", 0, 33)
        _str(flag, f"{where}[{i}].flag")
        if kind == "kong" and flag not in _KONG_FLAGS:
            raise _fail(f"{where}[{i}].flag", f"a kong's flag is one of {sorted(_KONG_FLAGS)}")
        if kind == "discard":
            discards[seat] += 1
    return discards


def _compact_actions(actions: Sequence[Any], n: int) -> list[int] | None:
    """The common case of :func:`check_actions` in one core pass; None if anything is off (the slow loop says
    what)."""
    return compact_actions(actions, n, _KIND_NAMES, _KONG_FLAG_NAMES, _MAX_FLAG)


def _claim_options(value: Any, where: str, seat: int, n: int) -> None:
    options = _list(value, where, limit=64)
    if not options:
        raise _fail(where, "a seat asked to answer has no options")
    for i, option in enumerate(options):
        if not isinstance(option, (list, tuple)) or len(option) != 5:
            raise _fail(f"{where}[{i}]", "must be a list [kind, seat, tile, tiles, flag]")
        kind, owner, tile, tiles, flag = option
        if type(kind) is not str or kind not in _CLAIM_KINDS:  # noqa: E721
            raise _fail(f"{where}[{i}]", f"{_show(kind)} is not a claim")
        if _int(owner, f"{where}[{i}].seat", 0, n - 1) != seat:
            raise _fail(f"{where}[{i}].seat", f"an option of seat {seat} names seat {owner}")
        _int(tile, f"{where}[{i}].tile", -1, 33)
        _ints(tiles, f"{where}[{i}].tiles", 0, 33, limit=4)
        _str(flag, f"{where}[{i}].flag")
    if options[-1][0] != "pass":
        raise _fail(where, "a claim window's options end with pass")


def check_log(data: Any, expected_format: str, rules: Rules | None) -> tuple[Rules, dict[str, Any]]:
    """A log's shape before it is replayed; returns the rules and a checked copy of the setup."""
    data = check_version(data, expected_format, "log")
    _dict(data, "log", frozenset({"format", "rules", "options", "setup", "actions"}),
          frozenset({"events", "result"}))
    rules = build_rules(data, "log", rules)
    setup = check_setup(rules, data["setup"], "log.setup")
    # Each action's shape is checked where it is applied (actions.coerce; Game.replay names the index).
    _list(data["actions"], "log.actions")
    return rules, setup


def _dealt_wall(rules: Rules, setup: Mapping[str, Any]) -> bytearray:
    """The wall the setup deals (its given wall, checked by :func:`check_setup`, or its seed's shuffle): a new
    bytearray, the restored table's own :attr:`~hupai.game.state.wall.Wall.tiles`."""
    if "wall" in setup:
        return bytearray(setup["wall"])
    if type(rules).__hash__ is None:  # a plugin's rules that compare by value and are not hashable
        return bytearray(_shuffled.__wrapped__(rules, setup["seed"]))
    return bytearray(_shuffled(rules, setup["seed"]))


@lru_cache(maxsize=64)
def _shuffled(rules: Rules, seed: int) -> bytes:
    """The wall a seed deals, kept for the hands restored lately: a server resumes the same hand request after
    request, and the shuffle is a few per cent of a restore. Keyed on the rules object (hashed by identity, and
    shared by the games restored with the same options: see :func:`build_rules`), not on its 136 tiles. Kept
    as bytes (immutable: every restore copies it into its own wall)."""
    from .wall import shuffle

    return bytes(shuffle(tuple(rules.tiles()), seed))


def _ok_ints(values: Any, low: int, high: int, length: int | None = None, limit: int = MAX_ACTIONS) -> bool:
    """The fast form of :func:`_ints` (C loops, no message built): callers run :func:`_ints` only when this
    says no, to name the bad entry."""
    if type(values) not in _RUN_TYPES or (len(values) != length if length is not None else len(values) > limit):
        return False
    return not values or set(map(type, values)) == _INT and low <= min(values) and max(values) <= high


_MATCH_KEYS = frozenset({"format", "rules", "options", "seed", "first_dealer", "dealer", "round_wind", "hands",
                         "scores", "over", "claim_window"})


def check_match(data: Any, expected_format: str, rules: Rules | None) -> tuple[Rules, dict[str, Any]]:
    """A stored match (:meth:`hupai.Match.to_dict`): returns the rules rebuilt from its name and options (those
    :meth:`~hupai.Match.record` fixed included) and a checked copy of its fields. Anything
    :meth:`~hupai.Match.to_dict` would not write raises InvalidState naming the field: the shape and types,
    ranges, scores that do not sum to zero (every hand's payments do), a fresh match that has moved, a round wind
    past 北 in a match that is not over, a Wai Huzi session past its first hand without its 神 (WH-5)."""
    data = check_version(data, expected_format, "match")
    _dict(data, "match", _MATCH_KEYS)
    rules = build_rules(data, "match", rules)
    n = rules.num_players
    out = {
        "seed": _int(data["seed"], "match.seed", 0, MAX_SEED),
        "first_dealer": _int(data["first_dealer"], "match.first_dealer", 0, n - 1),
        "dealer": _int(data["dealer"], "match.dealer", 0, n - 1),
        "round_wind": _int(data["round_wind"], "match.round_wind", 0, 4),
        "hands": _int(data["hands"], "match.hands", 0, MAX_HANDS),
        "scores": list(_ints(data["scores"], "match.scores", -MAX_SCORE, MAX_SCORE, n)),
        "over": data["over"],
        "claim_window": data["claim_window"],
    }
    if type(out["over"]) is not bool:  # noqa: E721
        raise _fail("match.over", f"must be true or false, got {type(out['over']).__name__}")
    if type(out["claim_window"]) is not str or out["claim_window"] not in claims.CLAIM_WINDOWS:  # noqa: E721
        raise _fail("match.claim_window", f"{_show(out['claim_window'])} is not one of "
                                          f"{', '.join(claims.CLAIM_WINDOWS)}")
    if sum(out["scores"]):
        raise _fail("match.scores", f"sum to {sum(out['scores'])}, not 0: every hand's payments sum to zero")
    if out["round_wind"] == 4 and not out["over"]:
        raise _fail("match.round_wind", "4 (past 北) in a match that is not over")
    if not out["hands"] and (out["over"] or any(out["scores"]) or out["round_wind"]
                             or out["dealer"] != out["first_dealer"]):
        raise _fail("match.hands", "0 hands played, but the scores, the deal, the round or the end have moved")
    if rules.family == "zipai" and out["hands"] and rules.options_dict().get("shen") is None:
        raise _fail("match.options.shen", "missing after the first hand: the session's 神 is fixed then (WH-5)")
    return rules, out
