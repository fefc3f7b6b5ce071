"""The compact table of a Wai Huzi snapshot (``"form": "zipai-compact/1"`` inside a ``hupai-game-snapshot/2``
table): how :meth:`Game.snapshot` writes a :class:`~hupai.game.state.zipai.ZipaiTable` and how
:meth:`Game.from_snapshot` reads one back, checked, **without replaying** the actions.

Only what the setup and the actions cannot give is kept, in strings and flat int lists that are cheap to write and
to check in bulk (a server parks and resumes a table on every request; :meth:`ZipaiTable.to_compact` writes it):

- ``form``: ``"zipai-compact/1"`` (a table without it is the full :meth:`ZipaiTable.to_json` form that hupai
  wrote before, restored by replaying its actions)
- ``head``: the wall's head; the order is the one the setup deals (its seed or given wall), dealt again on restore
- ``hands``: per seat a string of 20 digits, the count of each card
- ``groups``: per seat a list of 6-character tokens ``type c0 c1 c2 taken source``: ``w``/``p``/``l``/``f``/``c``
  (歪 碰 溜 飘 吃; a 溜 or 飘 holds four of ``c0``), the cards, the taken card or ``-``, the source seat or ``-``
- ``discards``: per seat its pile as a string of cards; ``menzi_ban``: per seat its (low, high, card) triples
  as a string of cards, three per triple, sorted
- ``masks``: ``chi_ban``, ``peng_ban``, ``locked`` of seats 0, 1, 2 (in that order), each a 20-bit card mask
- ``state``: ``[phase, turn_seat, offer, offer_from, offer_kind, opening, dealer_opening, haidi, calls,
  answers]`` then per seat ``dead``, ``ready_deal`` and ``grouped``: phase 0/1/2 = turn/claim/over, offer_kind
  0/1/2 = none/draw/discard, ``ready_deal`` -1 for None, ``answers`` how many of the last actions answer the open
  offer

Cards are single characters: ``0``..``9`` for cards 0..9, ``a``..``j`` for 10..19. The 神 comes from the setup
(the ``shen`` option or the card the deal shows); an open offer's options come from the flow (the ones it offers
on that card) and its answers from the last actions. Reading checks types and ranges, the 80 cards (each card in
exactly one place), every group's shape, WH-11's card counts, the phase fields against each other and the
actions, and raises :class:`~hupai.InvalidState` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import add, le
from typing import Any

from ..._core import count_kinds
from ...actions import Action
from ...errors import HupaiError
from ...rules.base import Rules
from ...zipai import RUNS
from ..state.validate import _INT, _dealt_wall, _dict, _fail, _list, _show
from ..state.wall import Wall
from ..state.zipai import (
    _OFFER_KINDS,
    _PHASES,
    _TYPE_LETTERS,
    CARD_CHARS,
    FORM,
    MENZI_BIT,
    NONE,
    Group,
    ZipaiTable,
    group_record,
)
from .flow import _ORDER, _PASS, ZipaiFlow

__all__ = ["table_from_compact", "is_compact"]

_DECODE = bytes(CARD_CHARS.index(chr(c)) if chr(c) in CARD_CHARS else 255 for c in range(256))
_KEYS = frozenset({"form", "head", "hands", "groups", "discards", "menzi_ban", "masks", "state"})
_STR = {str}
_LETTER_TYPES = {letter: kind for kind, letter in _TYPE_LETTERS.items()}
_RUN_SET = frozenset(RUNS)
_MASK = (1 << 20) - 1
#: The state list's ranges, index by index (the bulk test; the slow loop names an entry out of range).
_LOWS = (0, 0, -1, -1, 0, 0, 0, -1, 0, 0) + (0,) * 3 + (-1,) * 3 + (0,) * 3
_HIGHS = (2, 2, 19, 2, 2, 1, 1, 2, 64, 2) + (1,) * 3 + (1,) * 3 + (1,) * 3
_FOUR = [4] * 20
_CLAIM_KINDS = frozenset({"pass", "chow", "pung", "wai", "liu", "piao", "win"})


def is_compact(table: Any) -> bool:
    """Is a snapshot's table in this form (else it is the full form, restored by replay)?"""
    return isinstance(table, Mapping) and "form" in table


@lru_cache(maxsize=4096)
def _group(token: str) -> tuple[Group, bytes, bytes]:
    """A token's group, its cards and its record (what the table keeps); HupaiError or ValueError if the token is
    not one a hand can make."""
    if len(token) != 6 or token[0] not in _LETTER_TYPES or token[5] not in "-012":
        raise HupaiError("not a group token")
    kind = _LETTER_TYPES[token[0]]
    a, b, c = (CARD_CHARS.index(ch) for ch in token[1:4])  # ValueError if not a card
    taken = -1 if token[4] == "-" else CARD_CHARS.index(token[4])
    source = -1 if token[5] == "-" else int(token[5])
    if (taken < 0) != (source < 0):
        raise HupaiError("a group names both its taken card and its source seat, or neither")
    if kind == "chi":
        if (a, b, c) not in _RUN_SET or taken not in (a, b, c):
            raise HupaiError("a 吃 is a run holding its taken card")
    elif a != b or b != c or taken not in (a, -1) or taken < 0 and kind != "liu":
        raise HupaiError(f"a {kind} is three or four of one card, taken from a seat (a 溜 may be all held)")
    cards = (a, b, c) if kind == "chi" else (a,) * (4 if kind in ("liu", "piao") else 3)
    group = Group(kind, cards, taken, source)
    return group, bytes(cards), group_record(group)


def _strings(values: Any, field: str, length: int | None = None, limit: int = 80) -> list[bytes]:
    """Per seat a string of cards (or of counts) as bytes, checked in bulk; the slow path names a bad entry."""
    if (type(values) is list and len(values) == 3 and set(map(type, values)) == _STR  # noqa: E721
            and (set(map(len, values)) == {length} if length is not None else max(map(len, values)) <= limit)):
        out = [value.encode("utf-8").translate(_DECODE) for value in values]  # non-ASCII: bytes >= 128, all 255
        if 255 not in b"".join(out):
            return out
    values = _list(values, f"snapshot.table.{field}", 3)
    out = []
    for s, value in enumerate(values):
        where = f"snapshot.table.{field}[{s}]"
        if type(value) is not str or (len(value) != length if length is not None else len(value) > limit):  # noqa: E721
            raise _fail(where, f"must be a string of {length if length is not None else f'at most {limit}'} "
                               f"cards, got {_show(value)}")
        decoded = value.encode("utf-8").translate(_DECODE)
        if 255 in decoded:
            raise _fail(where, f"{_show(value)} holds a character that is not a card (0-9, a-j)")
        out.append(decoded)
    return out


#: The seats a group of each type may name as its source, per seat holding it: a 吃 takes its own turned-up card
#: or its 上家's card (WH-14), a 歪 its own turned-up card, a 碰 or 飘 another seat's card, a 溜 its own (or none).
_SOURCES = {(kind, seat): sources for seat in range(3) for kind, sources in (
    ("chi", (seat, (seat + 2) % 3)), ("wai", (seat,)), ("liu", (-1, seat)),
    ("peng", tuple(s for s in range(3) if s != seat)), ("piao", tuple(s for s in range(3) if s != seat)))}


def _seat_groups(tokens: Any, seat: int) -> list[tuple[Group, bytes, bytes]]:
    out = []
    for i, token in enumerate(tokens if type(tokens) is list and len(tokens) <= 7  # noqa: E721
                              else _list(tokens, f"snapshot.table.groups[{seat}]", limit=7)):
        try:
            if type(token) is not str:  # noqa: E721
                raise HupaiError("not a string")
            group = _group(token)
            if group[0].source not in _SOURCES[group[0].type, seat]:
                raise HupaiError(f"seat {seat} cannot hold a {group[0].type} of seat {group[0].source}'s card")
        except (HupaiError, ValueError) as error:
            raise _fail(f"snapshot.table.groups[{seat}][{i}]",
                        f"{_show(token)} is not a group token ({error})") from None
        out.append(group)
    return out


def table_from_compact(rules: Rules, setup: Mapping[str, Any], data: Any, actions: Sequence[Any],
                       discards_by_action: list[int], window: str) -> ZipaiTable:
    """The table a compact snapshot table holds, checked (see the module docstring); InvalidState names the
    field. An open offer is reopened: its options are the ones the flow offers on that card, its answers the
    snapshot's last actions."""
    w = "snapshot.table"
    t = _dict(data, w, _KEYS)
    if t["form"] != FORM:
        raise _fail(f"{w}.form", f"{_show(t['form'])} is not {FORM!r}")
    dealer = setup["dealer"]
    dealt = _dealt_wall(rules, setup)
    total = len(dealt)

    # -- scalars, flat: one bulk type and range test, the slow loop only to name the bad entry
    state = t["state"]
    if (type(state) is not list or len(state) != len(_HIGHS) or set(map(type, state)) != _INT  # noqa: E721
            or not all(map(le, _LOWS, state)) or not all(map(le, state, _HIGHS))):
        state = _list(state, f"{w}.state", len(_HIGHS))
        for i, value in enumerate(state):
            if type(value) is not int or not _LOWS[i] <= value <= _HIGHS[i]:  # noqa: E721
                raise _fail(f"{w}.state[{i}]", f"{_show(value)} is not an int in {_LOWS[i]}..{_HIGHS[i]}")
    phase_code, turn_seat, offer, offer_from, kind_code, opening, dealer_opening, haidi, calls, answered = state[:10]
    phase = _PHASES[phase_code]
    head = t["head"]
    if type(head) is not int or not 58 <= head <= total:  # noqa: E721
        raise _fail(f"{w}.head", f"must be an int in 58..{total}, got {_show(head)}")
    masks = t["masks"]
    if (type(masks) is not list or len(masks) != 9 or set(map(type, masks)) != _INT  # noqa: E721
            or min(masks) < 0 or max(masks) > _MASK):
        raise _fail(f"{w}.masks", f"must be 9 ints in 0..{_MASK} (20-bit card masks)")

    # -- per-seat strings and groups
    hands = [bytearray(counts) for counts in _strings(t["hands"], "hands", 20)]
    if max(map(max, hands)) > 4:
        raise _fail(f"{w}.hands", "a seat holds more than four of a card")
    piles = _strings(t["discards"], "discards")
    menzi = _strings(t["menzi_ban"], "menzi_ban", limit=3 * len(MENZI_BIT))
    menzi_ban = []
    for s, found in enumerate(menzi):
        triples = [(found[i], found[i + 1], found[i + 2]) for i in range(0, len(found) - 2, 3)]
        if len(found) % 3 or triples != sorted(set(triples)) or not MENZI_BIT.keys() >= set(triples):
            raise _fail(f"{w}.menzi_ban[{s}]", "must be sorted (low, high, card) triples a passed 吃 bans, "
                                               "without repeats")
        menzi_ban.append(sum([MENZI_BIT[triple] for triple in triples]))
    groups = [_seat_groups(tokens, s) for s, tokens in enumerate(_list(t["groups"], f"{w}.groups", 3))]

    # -- the phase fields against each other and the actions
    if opening != (not actions) or opening and (phase != "turn" or head != 58 or calls):
        raise _fail(f"{w}.state (opening)", "the opening is the dealer's first move, before any action")
    if phase == "turn":
        if offer != -1 or kind_code or dealer_opening or answered:
            raise _fail(f"{w}.state (offer)", "a turn has no offered card, answers or 地胡 card")
        if opening and turn_seat != dealer:
            raise _fail(f"{w}.state (turn_seat)", "the opening is the dealer's turn")
    elif phase == "claim":
        if offer < 0 or offer_from < 0 or not kind_code:
            raise _fail(f"{w}.state (offer)", "an offer names its card, its seat and how it came")
        if dealer_opening and (kind_code != 2 or offer_from != dealer):
            raise _fail(f"{w}.state (dealer_opening)", "地胡 is on a discard of the dealer")
        if kind_code == 1 and head == 58:
            raise _fail(f"{w}.state (offer_kind)", "no card has been turned up yet")
    if (haidi >= 0) != (head == total):
        raise _fail(f"{w}.state (haidi)", "the 海底 drawer is set exactly when the stock is empty")
    ready = state[13:16]
    if phase != "over" and (ready[dealer] < 0) != bool(opening) or -1 in ready[:dealer] + ready[dealer + 1:]:
        raise _fail(f"{w}.state (ready_deal)", "only the dealer's 报听 waits, and only for its first move")
    made = sum(map(len, groups))
    if not made <= calls <= 2 * made:
        raise _fail(f"{w}.state (calls)", f"{calls} groups made, but the seats hold {made}")

    # -- card conservation: every card in exactly one place
    placed = bytearray(bytes(dealt[head:]) + b"".join([g[1] for gs in groups for g in gs]) + b"".join(piles))
    if offer >= 0:  # the offered card (still so once a win on it ends the hand)
        placed.append(offer)
    # (every placed card is 0..19: the stock is the setup's, the rest was decoded from card characters)
    counts = list(map(add, count_kinds(placed, 0, len(placed), 20), map(sum, zip(*hands, strict=True))))
    if counts != _FOUR:
        card = next(c for c in range(20) if counts[c] != 4)
        raise _fail(f"{w}.hands", f"{counts[card]} copies of card {card} in hands, groups, piles, the offer and "
                                  "the stock (4 in the game)")

    # -- WH-11: 19 cards at rest counting each group's, one more per 4-card group, one more for the seat to move
    for s in range(3):
        held = sum(hands[s]) + sum(len(g[1]) for g in groups[s])
        rest = 19 + sum(1 for g in groups[s] if len(g[1]) == 4) + (phase == "turn" and s == turn_seat)
        if phase != "over" and held != rest:
            raise _fail(f"{w}.hands[{s}]", f"{held} cards counting groups, WH-11 says {rest}")

    # -- the table itself
    table = ZipaiTable.__new__(ZipaiTable)
    table.num_players = 3
    table.dealer = dealer
    table.first_dealer = setup["first_dealer"]
    table.round_wind = 0
    table.seat_winds = tuple((seat - dealer) % 3 for seat in range(3))
    table.wall = Wall(dealt, head, total)
    table.hands = hands
    table.views = ZipaiTable.views_of(hands)
    table.set_group_records([b"".join([g[2] for g in gs]) for gs in groups],
                            [tuple([g[0] for g in gs]) for gs in groups])
    table.set_piles(piles)
    table.phase = phase
    table.turn_seat = turn_seat
    table.offer = offer
    table.offer_from = offer_from
    table.offer_kind = _OFFER_KINDS[kind_code]
    table.pending = {}
    table.answers = {}
    table.dead = state[10] | state[11] << 1 | state[12] << 2
    table.chi_ban = masks[0:3]
    table.peng_ban = masks[3:6]
    table.menzi_ban = menzi_ban
    table.locked = masks[6:9]
    table.ready_deal = bytearray([NONE if r < 0 else r for r in ready])
    table.grouped = state[16] | state[17] << 1 | state[18] << 2
    table.opening = opening == 1
    table.dealer_opening = dealer_opening == 1
    table.haidi = haidi
    table.calls = calls
    table.extras = {}
    table.dealer_discarded = discards_by_action[dealer] > 0
    flow = ZipaiFlow(rules, window)
    table.shen, table.shen_shown, _ = flow.shen_of(setup["seed"], dealer, dealt)
    if phase == "claim":
        _reopen(flow, table, window, actions, answered)
    return table


def _reopen(flow: ZipaiFlow, table: ZipaiTable, window: str, actions: Sequence[Any], answered: int) -> None:
    """The open offer as the flow opens it on this table, with its answers (the last ``answered`` actions);
    InvalidState if they do not fit it."""
    flow.restore(table)
    drawn = table.offer_kind == "draw"
    offered = flow._offer_options(table.offer, table.offer_from, drawn)
    asked = _ORDER[drawn][table.offer_from] if window == "all" else tuple(offered)
    table.pending = {seat: (*offered.get(seat, ()), _PASS[seat]) for seat in asked}
    if not table.pending:
        raise _fail("snapshot.table.state (offer)", "an offer with nobody asked")
    if answered >= len(table.pending) or answered > len(actions):
        raise _fail("snapshot.table.state (answers)", "every asked seat has answered: the offer should have closed")
    first = len(actions) - answered
    for i in range(first, len(actions)):
        answer = actions[i]
        seat = answer[1]
        options = table.pending.get(seat)
        action = Action.from_compact(answer)
        if options is None or seat in table.answers or answer[0] not in _CLAIM_KINDS or action not in options:
            raise _fail(f"snapshot.actions[{i}]", f"is not an answer seat {seat} may give to the open offer")
        table.answers[seat] = options[options.index(action)]
