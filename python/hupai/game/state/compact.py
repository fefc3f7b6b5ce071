"""The compact table of a mahjong snapshot (``hupai-game-snapshot/2``): how :meth:`Game.snapshot` writes a
:class:`~hupai.game.state.Table` and how :meth:`Game.from_snapshot` reads one back, checked.

Format 2 keeps only what cannot be derived, in strings and flat int lists that are cheap to write and to check
in bulk (a server parks and resumes a table on every request):

- ``wall``: ``[head, tail]``; the order is the one the setup deals (its seed or given wall), dealt again on restore
- ``hands``: per seat a string of 34 digits, the count of each kind
- ``melds``: per seat a list of 6-character tokens ``type first concealed added source claimed``: ``c``/``p``/``k``
  (chow, pung, kong), the first tile, ``0``/``1`` twice, the source seat or ``-``, the claimed tile or ``-``
- ``discards``, ``missed``: per seat a string of tiles
- ``meld_order``: the seats in the order they made their melds (a seat's k-th entry is its meld k)
- ``phase``, ``drawn_from``: strings; ``extras``: the rule system's own JSON facts
- ``state``: ``[turn_seat, drawn, kong_from, last_discard, discarder, kong_tile, kong_seat, calls]`` then per seat
  ``draws``, ``discards_made``, ``payments`` and ``missed_all`` (0/1)

``missed`` and ``missed_all`` are the table's 漏胡 masks (``Table.louhu``) written out: its kinds, its every-tile bit.

Tiles are single characters: ``0``..``9`` for kinds 0..9, ``a``..``x`` for 10..33. Seats, winds, the dealer and
the wall's order come from the setup and the rules; an open claim or rob window comes from the rules (the window
they open on that discard or kong) and its answers from the actions after it. Reading checks what
:mod:`hupai.game.consistency` checks of a format-1 table (types, ranges, tile conservation, hand sizes, the actions'
discards, the open window) and raises :class:`~hupai.InvalidState` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import accumulate
from operator import attrgetter, itemgetter
from typing import Any

from ..._core import compact_tiles, count_kinds, ints_within, json_copy
from ...actions import Action
from ...errors import HupaiError
from ...hand import MELD_WIDTH, NO_SEAT, Meld
from ...rules.base import Rules
from . import consistency
from .table import (
    _MARKS,
    _NOT_KNOWN,
    _PADS,
    CLAIMED_MARKS,
    LOUHU_ALL,
    LOUHU_KINDS,
    Table,
    copy_json,
    louhu_kinds,
)
from .validate import (
    _PHASES,
    MAX_ACTIONS,
    MAX_DEPTH,
    MAX_NODES,
    _dealt_wall,
    _dict,
    _fail,
    _list,
    _show,
    check_free_json,
)
from .wall import Wall

__all__ = ["table_to_compact", "table_from_compact", "TILE_CHARS"]

#: One character per tile kind: 0..9, then a..x for 10..33.
TILE_CHARS = "0123456789abcdefghijklmnopqrstuvwx"
_ENCODE = bytes(ord(TILE_CHARS[k]) if k < 34 else ord("?") for k in range(256))
# A meld record's bytes (hupai.hand.Meld.record) to its token's characters: every byte as a tile (the type bytes
# are their letters' places among the tile characters; 0..9 are digits, so concealed and added are 0/1 and a seat
# its digit), no seat or tile as "-". _DECODE reads a (checked) token back: "-" is no tile, NO_SEAT.
_RECORD_CHARS = bytes(ord(TILE_CHARS[k]) if k < 34 else ord("-") if k == NO_SEAT else ord("?") for k in range(256))
_DECODE = bytes(TILE_CHARS.index(chr(c)) if chr(c) in TILE_CHARS else 255 for c in range(256))
_KEYS = frozenset({"wall", "hands", "melds", "discards", "missed", "meld_order", "phase", "drawn_from", "extras",
                   "state"})
_SCALARS = 8  # turn_seat, drawn, kong_from, last_discard, discarder, kong_tile, kong_seat, calls
_MELD_TYPES = {"c": "chow", "p": "pung", "k": "kong"}
_MAX_FLAG = 40
_FIRST = itemgetter(0)
_RECORD = attrgetter("record")
_THIRD = itemgetter(2)
_STR = {str}
_SLICES = [tuple(slice(i, i + 34) for i in range(0, 34 * n, 34)) for n in range(9)]  # per seat count: the hands
_HAND_SLICES = [itemgetter(*slices) if len(slices) > 1 else lambda text: (text[0:34],) for slices in _SLICES]
_EMPTY: list[tuple[tuple[()], ...]] = [((),) * n for n in range(9)]
_NOTHING = [[""] * n for n in range(9)]  # per seat count, a table's "missed" with no missed win
_NO_MELDS: list[list[list[str]]] = [[[] for _ in range(n)] for n in range(9)]  # and its "melds" before the first meld
_ZEROS = [bytes(n) for n in range(9)]  # per seat count: no melds, none claimed
_TILE_BYTES = [bytes((k,)) for k in range(34)]


def _tiles(values: Sequence[int]) -> str:
    return bytes(values).translate(_ENCODE).decode("ascii")


def table_to_compact(table: Table) -> dict[str, Any]:
    """The table in format 2 (see the module docstring)."""
    wall, records, louhu, order = table.wall, table.meld_records, table.louhu, table.meld_order
    n = table.num_players
    # C loops (join, slices, bytes of a list) rather than a call per item: a server writes a snapshot on every
    # request.
    hands = b"".join(table.hands).translate(_ENCODE).decode("ascii")
    return {
        "wall": [wall.head, wall.tail],
        "hands": [*_HAND_SLICES[n](hands)],
        # Most seats have no melds and no missed wins: an empty entry costs no call.
        "melds": [_tokens(seat_records) if seat_records else [] for seat_records in records] if any(records)
        else _no_melds(n),
        # Each pile's first discards_made bytes, the claimed marks deleted and the tiles made characters, in one
        # translate.
        "discards": [pile[:made].translate(_ENCODE, CLAIMED_MARKS).decode()
                     for pile, made in zip(table.piles, table.discards_made, strict=True)],
        "missed": [_missed(mask) for mask in louhu] if any(louhu) else [""] * n,
        "meld_order": bytes(map(_FIRST, order)).translate(_ENCODE).decode("ascii") if order else "",
        "phase": table.phase, "drawn_from": table.drawn_from, "extras": copy_json(table.extras),
        "state": [table.turn_seat, table.drawn, table.kong_from, table.last_discard, table.discarder,
                  table.kong_tile, table.kong_seat, table.calls, *table.draws, *table.discards_made,
                  *table.payments, *([mask >> 34 for mask in louhu] if any(louhu) else _ZEROS[n])],
    }


def _missed(mask: int) -> str:
    """A 漏胡 mask's kinds as the tile string format 2 keeps ("" for none; the every-tile bit is kept apart)."""
    return _tiles(louhu_kinds(mask)) if mask & LOUHU_KINDS else ""


def _louhu(kinds: bytes) -> int:
    """A 漏胡 mask of the kinds of a missed string (decoded, checked)."""
    mask = 0
    for kind in kinds:
        mask |= 1 << kind
    return mask


def _tokens(records: bytes) -> list[str]:
    """A seat's meld tokens: its meld records (``Table.meld_records``) are the tokens' bytes, one translate away."""
    text = records.translate(_RECORD_CHARS).decode("ascii")
    if len(text) == MELD_WIDTH:
        return [text]
    return [text[i:i + MELD_WIDTH] for i in range(0, len(text), MELD_WIDTH)]


def _no_melds(n: int) -> list[list[Any]]:
    return list(map(list, _EMPTY[n]))


def _decoded(value: Any, where: str, length: int | None = None, limit: int = MAX_ACTIONS) -> bytes:
    """A tile string as bytes of kinds 0..33 (or a count string as counts 0..9)."""
    if type(value) is not str or (len(value) != length if length is not None else len(value) > limit):  # noqa: E721
        raise _fail(where, f"must be a string of {length if length is not None else f'at most {limit}'} tiles, "
                           f"got {_show(value)}")
    data = value.encode("utf-8").translate(_DECODE)
    if 255 in data:
        raise _fail(where, f"{_show(value)} holds a character that is not a tile (0-9, a-x)")
    return data


def _strings(values: Any, field: str, n: int, length: int | None = None,
             limit: int = MAX_ACTIONS) -> tuple[list[bytes], bytes]:
    """Per seat a string of tiles (or of counts) as bytes, and all of them joined, checked in bulk (one decode of
    the joined text); the slow path names a bad entry."""
    if (type(values) is list and len(values) == n and set(map(type, values)) == _STR  # noqa: E721
            and (set(map(len, values)) == {length} if length is not None else max(map(len, values)) <= limit)):
        joined = "".join(values).encode("utf-8").translate(_DECODE)  # non-ASCII: bytes >= 128, all 255
        if 255 not in joined:
            if length == 34:
                return list(map(joined.__getitem__, _SLICES[n])), joined
            if length is not None:
                return [joined[i:i + length] for i in range(0, n * length, length)], joined
            ends = list(accumulate(map(len, values)))
            return [joined[a:b] for a, b in zip([0, *ends], ends)], joined  # noqa: B905 (one shorter)
    values = _list(values, f"snapshot.table.{field}", n)
    out = [_decoded(value, f"snapshot.table.{field}[{s}]", length, limit) for s, value in enumerate(values)]
    return out, b"".join(out)


@lru_cache(maxsize=4096)
def _meld(token: str) -> tuple[Meld, bytes, int]:
    """A meld token's meld, tiles and source seat (-1: none); HupaiError if the token is not one. Cached: a real
    game has a few hundred distinct melds, and a Meld is immutable."""
    if (len(token) != 6 or token[0] not in _MELD_TYPES or token[2] not in "01" or token[3] not in "01"
            or token[4] not in "-01234567"):
        raise HupaiError("not a meld token")
    kind = _MELD_TYPES[token[0]]
    first = TILE_CHARS.index(token[1])  # ValueError if not a tile: the caller refuses it
    source = -1 if token[4] == "-" else int(token[4])
    claimed = -1 if token[5] == "-" else TILE_CHARS.index(token[5])
    concealed, added = token[2] == "1", token[3] == "1"
    tiles = (first, first + 1, first + 2) if kind == "chow" else (first,) * (4 if kind == "kong" else 3)
    if kind == "chow" and (first >= 27 or first % 9 > 6):
        raise HupaiError("a chow is a run of one suit")
    if (source >= 0) != (claimed >= 0):
        raise HupaiError("a claimed meld names both its source seat and its claimed tile")
    if concealed and (kind != "kong" or source >= 0 or added) or added and kind != "kong":
        raise HupaiError("only an unclaimed, unadded kong is concealed; only a kong is added")
    meld = Meld(kind, tiles, concealed, None if source < 0 else source, added,  # type: ignore[arg-type]
                None if claimed < 0 else claimed)
    return meld, bytes(tiles), source


def _seat_melds(tokens: Any, seat: int, n: int) -> list[tuple[Meld, bytes, int]]:
    if type(tokens) is list and len(tokens) < 2:  # noqa: E721 (none or one: the loop below is as quick)
        pass
    elif type(tokens) is list and len(tokens) <= 8 and set(map(type, tokens)) <= _STR:  # noqa: E721
        try:
            found = list(map(_meld, tokens))
        except (HupaiError, ValueError):
            pass  # the loop below names the token
        else:
            sources = set(map(_THIRD, found))
            if seat not in sources and max(sources, default=-1) < n:
                return found
    out = []
    for i, token in enumerate(tokens if type(tokens) is list and len(tokens) <= 8  # noqa: E721
                              else _list(tokens, f"snapshot.table.melds[{seat}]", limit=8)):
        try:
            if type(token) is not str:  # noqa: E721
                raise HupaiError("not a string")
            meld = _meld(token)
        except (HupaiError, ValueError) as error:
            raise _fail(f"snapshot.table.melds[{seat}][{i}]", f"{_show(token)} is not a meld token ({error})") from None
        if meld[2] == seat or meld[2] >= n:
            raise _fail(f"snapshot.table.melds[{seat}][{i}]", f"source {meld[2]} is not another seat")
        out.append(meld)
    return out


def table_from_compact(rules: Rules, setup: Mapping[str, Any], data: Any, actions: Sequence[Any],
                       discards_by_action: list[int], window: str) -> Table:
    """The table a format-2 snapshot holds, checked (see the module docstring); InvalidState names the field."""
    w = "snapshot.table"
    t = _dict(data, w, _KEYS)
    n = rules.num_players
    dealt = _dealt_wall(rules, setup)
    total = len(dealt)

    # -- scalars, flat: one bulk type and range test, the slow loop only to name the bad entry
    state = t["state"]
    highs = _highs(n, total)
    lows = _lows(n)
    if not ints_within(state, lows, highs):
        state = _list(state, f"{w}.state", len(highs))
        for i, value in enumerate(state):
            if type(value) is not int or not lows[i] <= value <= highs[i]:  # noqa: E721
                raise _fail(f"{w}.state[{i}]", f"{_show(value)} is not an int in {lows[i]}..{highs[i]}")
    turn_seat, drawn, kong_from, last_discard, discarder, kong_tile, kong_seat, calls = state[:_SCALARS]
    draws = state[_SCALARS:_SCALARS + n]
    made = state[_SCALARS + n:_SCALARS + 2 * n]
    payments = state[_SCALARS + 2 * n:_SCALARS + 3 * n]
    missed_all = state[_SCALARS + 3 * n:]
    phase = t["phase"]
    if type(phase) is not str or phase not in _PHASES:  # noqa: E721
        raise _fail(f"{w}.phase", f"{_show(phase)} is not one of {sorted(_PHASES)}")
    drawn_from = t["drawn_from"]
    if type(drawn_from) is not str or len(drawn_from) > _MAX_FLAG:  # noqa: E721
        raise _fail(f"{w}.drawn_from", f"must be a string of at most {_MAX_FLAG} characters")
    wall = t["wall"]
    if type(wall) is not list or len(wall) != 2:  # noqa: E721
        wall = _list(wall, f"{w}.wall", 2)
    head, tail = wall
    if type(head) is not int or type(tail) is not int or not 0 <= head <= tail <= total:  # noqa: E721
        raise _fail(f"{w}.wall", f"head and tail must be ints with 0 <= head <= tail <= {total}")

    # -- melds, meld order and extras first (the tile count needs them), though the snapshot's tile strings come
    # before them: on a refusal here, a bad string is named first, as it was when the strings were read first
    try:
        melds, meld_count, order = _checked_melds(t, n)
        extras = t["extras"]
        if type(extras) is not dict:  # noqa: E721
            raise _fail(f"{w}.extras", f"must be an object, got {type(extras).__name__}")
        # checked and copied in one core pass (the restored table's own copy); the walk names what is wrong
        copied = json_copy(extras, MAX_DEPTH, MAX_NODES)
        if copied is None:
            check_free_json(extras, "snapshot.table.extras")
            copied = copy_json(extras)
        extras = copied
        stand_in = rules.stand_in(extras)
        aside = rules.set_aside(extras)
        extra = b"".join([m[1] for seat_melds in melds for m in seat_melds]) if meld_count else b""
        if aside:
            extra += bytes(aside)
    except Exception:
        _tile_strings(t, n, total)
        raise
    stand_in_chows = 0 if not stand_in or not meld_count else sum(
        1 for seat_melds in melds for m in seat_melds if m[0].type == "chow" and stand_in[0] in m[0].tiles)
    if phase == "over" and kong_tile >= 0:  # a robbed kong's tile went to its robber's win
        extra += _TILE_BYTES[kong_tile]
    claimed = [0] * n
    if meld_count:
        for seat_melds in melds:
            for m in seat_melds:
                if m[2] >= 0:
                    claimed[m[2]] += 1

    # -- the tile strings, tile conservation, the piles against the actions and the hand sizes: one core pass
    # (compact_tiles), or on any doubt the Python checks below, which name what is wrong
    copies = _copies(rules, dealt)
    size = rules.hand_size
    found = None
    moved = _stand_in_bytes(stand_in, stand_in_chows) if stand_in and stand_in_chows else b""
    if made == discards_by_action and total < 256 and moved is not None:
        low, high = _sizes(n, size, phase, turn_seat)
        found = compact_tiles(t["hands"], t["discards"], t["missed"], dealt, head, tail,
                              extra, copies, bytes(made), bytes(claimed) if meld_count else _ZEROS[n],
                              bytes(map(len, melds)) if meld_count else _ZEROS[n], low, high, moved)
    hand_bytes: Sequence[bytes]
    piles: Sequence[bytes]
    if found is None:
        hand_bytes, piles, missed = _checked_tiles(t, n, total, dealt, head, tail, extra, copies, stand_in,
                                                   stand_in_chows, made, claimed, discards_by_action, melds,
                                                   meld_count, size, phase, turn_seat)
    else:
        hand_bytes, piles, found_missed = found
        missed = list(map(_louhu, found_missed)) if any(found_missed) else [0] * n
    hands = list(map(bytearray, hand_bytes))
    if phase == "turn" and drawn >= 0 and not hands[turn_seat][drawn]:
        raise _fail(f"{w}.state (drawn)", f"seat {turn_seat} does not hold its drawn tile")
    if phase == "claim" and (last_discard < 0 or discarder < 0 or not piles[discarder]
                             or piles[discarder][-1] != last_discard):
        raise _fail(f"{w}.state (last_discard)", "the tile under claim is not its discarder's last discard")
    if phase == "rob" and (kong_seat != turn_seat or kong_tile < 0 or not any(
            m[0].type == "pung" and m[1][0] == kong_tile for m in melds[kong_seat])
            and hands[kong_seat][kong_tile] != 4):
        raise _fail(f"{w}.state (kong_tile)", "the seat adding a kong has no pung or four of that tile")

    # -- the table itself (every slot set here: no __init__, which would build lists only to replace them)
    table = Table.__new__(Table)
    table.num_players = n
    table.dealer = setup["dealer"]
    table.first_dealer = setup["first_dealer"]
    table.round_wind = setup["round_wind"]
    table.seat_winds = _seat_winds(rules, setup["dealer"], setup["first_dealer"])
    table.wall = Wall(dealt, head, tail)
    table.hands = hands
    table._views = None
    if meld_count:
        table.melds = seated = [list(map(_FIRST, seat_melds)) if seat_melds else [] for seat_melds in melds]
        # The seats' records, of their Melds (made once per token: _meld); a seat of one meld, the usual, joins none.
        table.meld_records = [(ms[0].record if len(ms) == 1 else b"".join(map(_RECORD, ms))) if ms else b""
                              for ms in seated]
    else:
        table.melds = _no_melds(n)
        table.meld_records = [b""] * n
    table.phase = phase
    table.turn_seat = turn_seat
    table.drawn = drawn
    table.drawn_from = drawn_from
    table.kong_from = kong_from
    table.last_discard = last_discard
    table.discarder = discarder
    table.kong_tile = kong_tile
    table.kong_seat = kong_seat
    table.pending = {}
    table.answers = {}
    table.draws = bytearray(draws)
    # Table.set_discards' piles, built here without its checks: the piles are bytes of at most made[s] tiles
    table.discards_made = bytearray(made)
    table.piles = [bytearray(b"".join((_MARKS[count - len(pile)], pile, _PADS[count])))
                   for pile, count in zip(piles, made)]  # noqa: B905 (one per seat, checked)
    table.calls = calls
    meld_order = []
    if order:
        seen = [0] * n
        for char in order:
            seat = int(char)
            meld_order.append((seat, seen[seat]))
            seen[seat] += 1
    table.meld_order = meld_order
    if any(missed_all):  # (the every-tile flags: 0/1 per seat)
        table.louhu = [mask | LOUHU_ALL if every else mask for mask, every in zip(missed, missed_all, strict=True)]
    else:
        table.louhu = missed
    table.extras = extras  # (copied above)
    table.payments = payments
    table.ready_bytes = bytearray(_NOT_KNOWN[n])  # derived, never saved

    # -- what the last actions fix, then the rules' own checks; the open window is the one the rules open
    answers = _answers(phase, actions)
    consistency.check_against_actions(table, answers, actions)
    consistency.check_with_rules(rules, window, table, actions)
    if phase in ("claim", "rob"):
        _open_window(rules, window, table, answers, len(actions))
    return table


def _tile_strings(t: Mapping[str, Any], n: int, total: int) -> tuple[list[bytes], bytes, list[bytes], bytes,
                                                                      list[int]]:
    """The hands, discards and missed strings decoded and checked one by one (InvalidState names a bad one):
    per seat hand counts and all of them joined, the piles and all of them joined, the missed kinds as masks."""
    w = "snapshot.table"
    hand_bytes, joined_hands = _strings(t["hands"], "hands", n, 34)
    piles, joined_piles = _strings(t["discards"], "discards", n, limit=total)
    found = t["missed"]
    if type(found) is list and found == _NOTHING[n]:  # noqa: E721 (the usual case: no missed win anywhere)
        missed = [0] * n
    else:
        missed = []
        for s, kinds in enumerate(_strings(found, "missed", n, limit=34)[0]):
            if kinds and list(kinds) != sorted(set(kinds)):
                raise _fail(f"{w}.missed[{s}]", "must be sorted kinds without repeats")
            missed.append(_louhu(kinds))
    return hand_bytes, joined_hands, piles, joined_piles, missed


def _checked_melds(t: Mapping[str, Any], n: int) -> tuple[list[list[tuple[Meld, bytes, int]]], int, str]:
    """The melds per seat (meld, tiles, source seat), how many, and their order (checked)."""
    w = "snapshot.table"
    tokens = t["melds"]
    if type(tokens) is list and tokens == _NO_MELDS[n]:  # noqa: E721 (the usual case early in a hand)
        melds: list[list[tuple[Meld, bytes, int]]] = _no_melds(n)
        meld_count = 0
    else:
        if type(tokens) is not list or len(tokens) != n:  # noqa: E721
            tokens = _list(tokens, f"{w}.melds", n)
        # (a seat without melds, most of them, costs no call)
        melds = [[] if type(ms) is list and not ms else _seat_melds(ms, s, n)  # noqa: E721
                 for s, ms in enumerate(tokens)]
        meld_count = sum(map(len, melds))
    order = t["meld_order"]
    if type(order) is not str or len(order) != meld_count or order.strip("0123456789"[:n]) or meld_count and (  # noqa: E721
            list(map(order.count, "0123456789"[:n])) != list(map(len, melds))):
        raise _fail(f"{w}.meld_order", "must name each meld's seat once, in the order the melds were made")
    return melds, meld_count, order


def _checked_tiles(t: Mapping[str, Any], n: int, total: int, dealt: bytes, head: int, tail: int, extra: bytes,
                   copies: bytes, stand_in: tuple[int, int] | None, stand_in_chows: int, made: list[int],
                   claimed: list[int], discards_by_action: list[int], melds: list[list[tuple[Meld, bytes, int]]],
                   meld_count: int, size: int, phase: str,
                   turn_seat: int) -> tuple[list[bytes], list[bytes], list[int]]:
    """What compact_tiles checks, in Python, naming what is wrong (InvalidState): the tile strings, tile
    conservation, the discards against the actions, the hand sizes. Returns the hands, piles and missed kinds."""
    w = "snapshot.table"
    hand_bytes, joined_hands, piles, joined_piles, missed = _tile_strings(t, n, total)

    # -- tile conservation
    placed = bytearray(dealt[head:tail])
    placed += joined_piles
    placed += extra
    try:
        counts = count_kinds(placed, 0, len(placed), 34)
    except HupaiError:
        counts = None
    if counts is None or not _conserved(copies, counts, joined_hands, n, stand_in, stand_in_chows):
        # (the melds' tiles, the rules' places and a robbed kong's tile are all in ``extra``)
        consistency._check_tiles(list(copies), w, dealt[head:tail], hand_bytes, list(extra), (stand_in, stand_in_chows),
                                 piles, (), phase, -1)

    # -- the discards against the actions and the melds claimed from each pile
    if made != discards_by_action:
        s = next(s for s in range(n) if made[s] != discards_by_action[s])
        raise _fail(f"{w}.state (discards_made[{s}])", f"{made[s]}, but the actions hold {discards_by_action[s]} "
                                                      f"discards of seat {s}")
    for s in range(n):
        if len(piles[s]) != made[s] - claimed[s]:
            raise _fail(f"{w}.discards[{s}]", f"{len(piles[s])} tiles, but seat {s} discarded {made[s]} and "
                                              f"{claimed[s]} were claimed")

    # -- hand sizes: concealed tiles plus three per meld make the hand size, one more for the seat to act
    held = list(map(sum, hand_bytes))
    if meld_count:
        held = [count + 3 * len(seat_melds) for count, seat_melds in zip(held, melds, strict=True)]
    if phase == "over":
        wrong = next((s for s in range(n) if not size - 1 <= held[s] <= size + 1), -1)
    else:
        expected = [size] * n
        expected[turn_seat] = size + 1 if phase in ("turn", "rob") else size
        wrong = -1 if held == expected else next(s for s in range(n) if held[s] != expected[s])
    if wrong >= 0:
        raise _fail(f"{w}.hands[{wrong}]", f"{held[wrong]} tiles counting melds (hand size {size}) in phase {phase!r}"
                                           f"{' as the seat to act' if wrong == turn_seat else ''}")
    return hand_bytes, piles, missed


def _stand_in_bytes(stand_in: tuple[int, int], chows: int) -> bytes | None:
    """compact_tiles' ``stand_in`` argument, (recorded, physical, chows) as bytes; None if the rules name kinds
    it does not take (the Python check then counts the tiles)."""
    recorded, physical = stand_in
    if type(recorded) is int and type(physical) is int and 0 <= recorded < 34 and 0 <= physical < 34:  # noqa: E721
        return bytes((recorded, physical, min(chows, 255)))
    return None


def _answers(phase: str, actions: Sequence[Any]) -> Sequence[Any]:
    """The answers given so far in an open window: the actions after the discard (or kong) in question."""
    if phase not in ("claim", "rob"):
        return ()
    opened = ("discard",) if phase == "claim" else ("kong", "declare")
    start = len(actions) - 1
    while start >= 0 and actions[start][0] not in opened:
        start -= 1
    return actions[start + 1:]


def _open_window(rules: Rules, window: str, table: Table, answers: Sequence[Any], actions: int) -> None:
    """Open the window the rules open on this table, with its ``answers`` (the last of ``actions`` actions);
    InvalidState if they do not fit it."""
    w = "snapshot.table"
    table.pending = consistency.open_window(rules, window, table)
    if not table.pending:
        raise _fail(f"{w}.phase", f"a {table.phase} window with nobody asked")
    for i, answer in enumerate(answers):
        options = table.pending.get(answer[1])
        action = Action.from_compact(answer)
        if options is None or answer[1] in table.answers or action not in options:
            raise _fail(f"snapshot.actions[{actions - len(answers) + i}]",
                        f"is not an answer seat {answer[1]} may give in the open window")
        table.answers[answer[1]] = options[options.index(action)]
    if len(table.answers) >= len(table.pending):
        raise _fail(f"{w}.phase", "every asked seat has answered: the window should have closed")


@lru_cache(maxsize=16)
def _highs(n: int, total: int) -> tuple[int, ...]:
    top = n - 1
    scalars = (top, 33, top, 33, top, 33, top, total)
    return scalars + (total,) * (2 * n) + (1 << 62,) * n + (1,) * n


@lru_cache(maxsize=16)
def _lows(n: int) -> tuple[int, ...]:
    return (0, -1, -1, -1, -1, -1, -1, 0) + (0,) * (2 * n) + (-(1 << 62),) * n + (0,) * n


def _seat_winds(rules: Rules, dealer: int, first_dealer: int) -> tuple[int, ...]:
    if type(rules).__hash__ is None:  # a plugin's rules that compare by value and are not hashable
        return tuple(rules.seat_winds(dealer, first_dealer))
    return _rules_winds(rules, dealer, first_dealer)


@lru_cache(maxsize=256)
def _rules_winds(rules: Rules, dealer: int, first_dealer: int) -> tuple[int, ...]:
    """The seats' winds, kept per rules object (a hook of the setup alone, asked on every restore)."""
    return tuple(rules.seat_winds(dealer, first_dealer))


@lru_cache(maxsize=64)
def _sizes(n: int, size: int, phase: str, turn_seat: int) -> tuple[bytes, bytes]:
    """The fewest and most tiles each seat may hold counting three per meld (compact_tiles' low and high): the
    hand size, one more for the seat to act in a turn or rob phase, one either way once the hand is over (a
    robbed kong's tile left its hand)."""
    if phase == "over":
        return bytes([size - 1] * n), bytes([size + 1] * n)
    expected = [size] * n
    expected[turn_seat] = size + 1 if phase in ("turn", "rob") else size
    return bytes(expected), bytes(expected)


def _copies(rules: Rules, dealt: bytes) -> bytes:
    """How many tiles of each kind the wall holds (the setup's wall holds the rules' tiles, checked)."""
    if type(rules).__hash__ is None:  # a plugin's rules that compare by value and are not hashable
        return count_kinds(dealt, 0, len(dealt), 34)
    return _rules_copies(rules)


@lru_cache(maxsize=16)
def _rules_copies(rules: Rules) -> bytes:
    tiles = rules.tiles()
    return count_kinds(tiles, 0, len(tiles), 34)


def _conserved(copies: bytes, placed: bytes, hands: bytes, n: int, stand_in: tuple[int, int] | None,
               chows: int) -> bool:
    """Every tile in exactly one place (the quick test; the caller names a failure). ``hands``: the seats' 34
    counts each, joined. The counts are added as the bytes of big ints, one digit per kind, which is exact while no
    digit reaches 256 (more tiles of a kind than a wall has fails the full check anyway)."""
    if stand_in and chows:
        return False  # the rare case: counted by the full check, which moves the stand-ins
    if max(placed) + n * max(hands) > 255:
        return False
    held = sum([int.from_bytes(hands[i:i + 34], "little") for i in range(0, 34 * n, 34)])
    return int.from_bytes(placed, "little") + held == int.from_bytes(copies, "little")
