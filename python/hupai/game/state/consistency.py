"""Everything a snapshot passes before it is restored (:func:`check_snapshot`): the schema checks of
:mod:`hupai.game.state.validate`, then the consistency checks of its table: the table against the wall its
setup deals and the tile set (conservation), against its own actions (the last discard, the seat to act, the
answers in an open window), and against the rules (the claim window they open, a pre-draw declaration on
offer, and the rule system's own state, which it checks itself:
:meth:`~hupai.rules.base.Rules.check_state`, with :meth:`~hupai.rules.base.Rules.set_aside` and
:meth:`~hupai.rules.base.Rules.stand_in` for the tile count).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from ..._core import has_list
from ...actions import Action
from ...rules.base import Rules
from ...rules.contract import TakeFromTail
from ..mahjong import claims
from .table import Table
from .validate import (
    _INT,
    _PHASES,
    _TABLE_KEYS,
    _claim_options,
    _dealt_wall,
    _dict,
    _fail,
    _int,
    _ints,
    _list,
    _ok_ints,
    _show,
    _str,
    check_free_json,
)

__all__ = ["check_table", "check_against_actions", "check_with_rules", "open_window"]

_MELD_TYPES = frozenset({"chow", "pung", "kong"})
_SEQUENCES = {list, tuple}  # what has_list reads (other sequences: the types are gathered in Python)


def check_table(rules: Rules, setup: Mapping[str, Any], table: Any, discards_by_action: list[int]) -> None:
    """The table block of a snapshot against its rules and setup (see the module docstring)."""
    w = "snapshot.table"
    t = _dict(table, w, _TABLE_KEYS)
    n = rules.num_players
    top = n - 1
    if _int(t["n"], f"{w}.n", 1, 8) != n:
        raise _fail(f"{w}.n", f"{t['n']} players, the rules have {n}")
    for key in ("dealer", "first_dealer", "round_wind"):
        if t[key] != setup[key] or type(t[key]) is not int:  # noqa: E721
            raise _fail(f"{w}.{key}", f"{_show(t[key])} differs from the setup's {setup[key]}")
    winds = t["seat_winds"]
    if type(winds) is not list or winds != list(rules.seat_winds(setup["dealer"], setup["first_dealer"])):  # noqa: E721
        raise _fail(f"{w}.seat_winds", "are not the winds the rules give this setup")

    # -- the wall: the very order the setup deals, and a live range inside it
    wall = _list(t["wall"], f"{w}.wall", 3)
    dealt = _dealt_wall(rules, setup)
    if type(wall[0]) is not list or wall[0] != list(dealt) or set(map(type, wall[0])) != _INT:  # noqa: E721
        raise _fail(f"{w}.wall[0]", "is not the wall the setup's seed (or given wall) deals")
    head = _int(wall[1], f"{w}.wall[1] (head)", 0, len(dealt))
    tail = _int(wall[2], f"{w}.wall[2] (tail)", head, len(dealt))

    # -- per-seat lists (a count above the set's copies shows as a conservation error below)
    size = rules.hand_size
    total = len(dealt)
    copies = _kind_counts(dealt)
    most = max(copies)
    hands = _list(t["hands"], f"{w}.hands", n)
    for s, hand in enumerate(hands):
        if not _ok_ints(hand, 0, most, 34):
            _ints(hand, f"{w}.hands[{s}]", 0, most, 34)
    melds = _list(t["melds"], f"{w}.melds", n)
    meld_tiles: list[int] = []
    claimed = [0] * n
    stand_in = rules.stand_in(t["extras"]) if isinstance(t["extras"], dict) else None
    recorded = stand_in[0] if stand_in else -1
    stand_in_chows = 0
    for s, seat_melds in enumerate(melds):
        for i, meld in enumerate(_list(seat_melds, f"{w}.melds[{s}]", limit=8)):
            kind, tiles, source = _meld(meld, f"{w}.melds[{s}][{i}]", s, n)
            meld_tiles.extend(tiles)
            if source >= 0:
                claimed[source] += 1
            if kind == "chow" and recorded in tiles:
                stand_in_chows += 1
    piles = _list(t["discards"], f"{w}.discards", n)
    for s, pile in enumerate(piles):
        if not _ok_ints(pile, 0, 33, limit=total):
            _ints(pile, f"{w}.discards[{s}]", 0, 33, limit=total)
    for key in ("draws", "discards_made"):
        if not _ok_ints(t[key], 0, total, n):
            _ints(t[key], f"{w}.{key}", 0, total, n)
    if not _ok_ints(t["payments"], -(1 << 62), 1 << 62, n):
        _ints(t["payments"], f"{w}.payments", -(1 << 62), 1 << 62, n)
    _int(t["calls"], f"{w}.calls", 0, total)
    for s, kinds in enumerate(_list(t["missed"], f"{w}.missed", n)):
        if not _ok_ints(kinds, 0, 33, limit=34):
            _ints(kinds, f"{w}.missed[{s}]", 0, 33, limit=34)
        if list(kinds) != sorted(set(kinds)):
            raise _fail(f"{w}.missed[{s}]", "must be sorted kinds without repeats")
    if set(map(type, _list(t["missed_all"], f"{w}.missed_all", n))) != {bool}:
        raise _fail(f"{w}.missed_all", "must be a list of bools")
    extras = t["extras"]
    if type(extras) is not dict:  # noqa: E721
        raise _fail(f"{w}.extras", f"must be an object, got {type(extras).__name__}")
    check_free_json(extras, f"{w}.extras")

    # -- scalars
    phase = t["phase"]
    if type(phase) is not str or phase not in _PHASES:  # noqa: E721
        raise _fail(f"{w}.phase", f"{_show(phase)} is not one of {sorted(_PHASES)}")
    turn_seat = _int(t["turn_seat"], f"{w}.turn_seat", 0, top)
    drawn = _int(t["drawn"], f"{w}.drawn", -1, 33)
    _str(t["drawn_from"], f"{w}.drawn_from")
    _int(t["kong_from"], f"{w}.kong_from", -1, top)
    last_discard = _int(t["last_discard"], f"{w}.last_discard", -1, 33)
    discarder = _int(t["discarder"], f"{w}.discarder", -1, top)
    kong_tile = _int(t["kong_tile"], f"{w}.kong_tile", -1, 33)
    kong_seat = _int(t["kong_seat"], f"{w}.kong_seat", -1, top)

    # -- meld order: every meld exactly once
    order = _list(t["meld_order"], f"{w}.meld_order", limit=8 * n)
    seen = set()
    for i, pair in enumerate(order):
        pair = _list(pair, f"{w}.meld_order[{i}]", 2)
        s = _int(pair[0], f"{w}.meld_order[{i}][0]", 0, top)
        _int(pair[1], f"{w}.meld_order[{i}][1]", 0, len(melds[s]) - 1)
        seen.add((pair[0], pair[1]))
    if len(seen) != len(order) or len(order) != sum(map(len, melds)):
        raise _fail(f"{w}.meld_order", "must list every meld exactly once")

    # -- tile conservation
    aside = rules.set_aside(extras)
    _check_tiles(copies, w, dealt[head:tail], hands, meld_tiles, (stand_in, stand_in_chows), piles, aside, phase,
                 kong_tile)

    # -- the discards against the actions and the melds claimed from each pile
    made = t["discards_made"]
    for s in range(n):
        if made[s] != discards_by_action[s]:
            raise _fail(f"{w}.discards_made[{s}]", f"{made[s]}, but the actions hold "
                                                  f"{discards_by_action[s]} discards of seat {s}")
        if len(piles[s]) != discards_by_action[s] - claimed[s]:
            raise _fail(f"{w}.discards[{s}]", f"{len(piles[s])} tiles, but seat {s} discarded "
                                              f"{discards_by_action[s]} and {claimed[s]} were claimed")

    # -- hand sizes: concealed tiles plus three per meld make the hand size, one more for the seat to act
    held = [sum(hand) + 3 * len(seat_melds) for hand, seat_melds in zip(hands, melds, strict=True)]
    for s in range(n):
        if phase == "over":
            ok = size - 1 <= held[s] <= size + 1  # a robbed kong's tile left its hand
        elif s == turn_seat:
            ok = held[s] == (size if phase == "predraw" else size + 1 if phase in ("turn", "rob") else size)
        else:
            ok = held[s] == size
        if not ok:
            raise _fail(f"{w}.hands[{s}]", f"{held[s]} tiles counting melds (hand size {size}) in phase "
                                           f"{phase!r}{' as the seat to act' if s == turn_seat else ''}")
    if phase == "turn" and drawn >= 0 and not hands[turn_seat][drawn]:
        raise _fail(f"{w}.drawn", f"seat {turn_seat} does not hold its drawn tile")

    # -- phase: an open window has its source, seats still to answer, and answers among the options
    pending = _list(t["pending"], f"{w}.pending", limit=n)
    answers = _list(t["answers"], f"{w}.answers", limit=n)
    if phase not in ("claim", "rob"):
        if pending or answers:
            raise _fail(f"{w}.pending", f"a claim window is open in phase {phase!r}")
        return
    asked: dict[int, Sequence[Any]] = {}
    for i, entry in enumerate(pending):
        entry = _list(entry, f"{w}.pending[{i}]", 2)
        seat = _int(entry[0], f"{w}.pending[{i}][0]", 0, top)
        if seat in asked:
            raise _fail(f"{w}.pending[{i}]", f"seat {seat} is asked twice")
        _claim_options(entry[1], f"{w}.pending[{i}][1]", seat, n)
        asked[seat] = entry[1]
    source = discarder if phase == "claim" else kong_seat
    if not asked:
        raise _fail(f"{w}.pending", f"a {phase} window with nobody asked")
    if source < 0 or source in asked:
        raise _fail(f"{w}.pending", f"the {phase} window's source seat {source} cannot be asked")
    answered = set()
    for i, entry in enumerate(answers):
        entry = _list(entry, f"{w}.answers[{i}]", 2)
        seat = _int(entry[0], f"{w}.answers[{i}][0]", 0, top)
        if seat not in asked or seat in answered:
            raise _fail(f"{w}.answers[{i}]", f"seat {seat} was not asked or has answered already")
        if not isinstance(entry[1], (list, tuple)) or list(entry[1]) not in [list(o) for o in asked[seat]]:
            raise _fail(f"{w}.answers[{i}][1]", f"is not one of seat {seat}'s options")
        answered.add(seat)
    if len(answered) >= len(asked):
        raise _fail(f"{w}.answers", "every asked seat has answered: the window should have closed")
    if phase == "claim" and (last_discard < 0 or not piles[discarder] or piles[discarder][-1] != last_discard):
        raise _fail(f"{w}.last_discard", "the tile under claim is not its discarder's last discard")
    if phase == "rob" and (kong_seat != turn_seat or kong_tile < 0 or not any(
            m[0] == "pung" and m[1][0] == kong_tile for m in melds[kong_seat])
            and hands[kong_seat][kong_tile] != 4):
        raise _fail(f"{w}.kong_tile", "the seat adding a kong has no pung or four of that tile")


def check_against_actions(table: Table, answers: Sequence[Any], actions: Sequence[Any]) -> None:
    """What the last actions fix cheaply (the table and actions are already checked for shape): the last
    discard and its seat, the seat to act after it, the ``answers`` given in an open window (compact actions, in
    the order given), kong bookkeeping."""
    w = "snapshot.table"
    n = table.num_players
    phase, turn_seat = table.phase, table.turn_seat
    last = len(actions) - 1
    while last >= 0 and actions[last][0] != "discard":
        last -= 1
    if last < 0:
        if (table.discarder, table.last_discard) != (-1, -1):
            raise _fail(f"{w}.discarder", "a last discard is named, but no discard was made")
        if not actions and turn_seat != table.dealer:
            raise _fail(f"{w}.turn_seat", "before any action the dealer is to act")
    else:
        seat, tile = actions[last][1], actions[last][2]
        if (table.discarder, table.last_discard) != (seat, tile):
            raise _fail(f"{w}.last_discard", f"the last discard action is seat {seat}'s tile {tile}")
        if last == len(actions) - 1 and turn_seat != (seat if phase == "claim" else (seat + 1) % n):
            raise _fail(f"{w}.turn_seat", f"{turn_seat} after seat {seat}'s discard in phase {phase!r}")
    if phase == "claim" and turn_seat != table.discarder:
        raise _fail(f"{w}.turn_seat", "in a claim window the discarder's turn is not over")
    given = [_compact(a) for a in answers] if answers else []
    if phase == "claim" and [_compact(a) for a in actions[last + 1:]] != given:
        raise _fail(f"{w}.answers", "are not the actions after the discard under claim")
    if phase == "rob":
        start = len(actions) - len(answers) - 1
        made = actions[start] if start >= 0 else None
        if made is None or made[0] not in ("kong", "declare") or (made[1], made[2]) != (
                table.kong_seat, table.kong_tile):
            raise _fail(f"{w}.kong_tile", "the kong being robbed is not the action before the answers")
        if [_compact(a) for a in actions[start + 1:]] != given:
            raise _fail(f"{w}.answers", "are not the actions after the kong being robbed")
    elif phase != "over" and (table.kong_tile, table.kong_seat) != (-1, -1):
        raise _fail(f"{w}.kong_tile", f"a kong is being robbed in phase {phase!r}")
    kong_from = table.kong_from
    if kong_from >= 0 and (kong_from == turn_seat or phase == "predraw"
                           or phase == "turn" and table.drawn_from != "replacement"
                           or not any(m.type == "kong" and m.claimed_from == kong_from and not m.added
                                      for m in table.melds[turn_seat])):
        raise _fail(f"{w}.kong_from", f"seat {turn_seat} has no kong claimed from seat {kong_from} to draw for")


def _compact(action: Sequence[Any]) -> tuple[Any, ...]:
    """An action in a comparable form (a snapshot's lists and an Action's tuples alike)."""
    return (action[0], action[1], action[2], tuple(action[3]), action[4])


def check_with_rules(rules: Rules, window: str, table: Table, actions: Sequence[Any]) -> None:
    """Checks that ask the rules about the restored table: the draws the wall has given, the melds made, zero-sum
    payments, a pre-draw phase has a declaration on offer, and a
    rule system's own facts (Yunxiao's gold and counters). The open window is :func:`open_window`'s."""
    w = "snapshot.table"
    n = table.num_players
    wall = table.wall
    head0 = n * rules.hand_size + 1
    tail0 = len(wall.tiles) - _dealt_tail_offset(rules, table)
    drawn = wall.head - head0 + tail0 - wall.tail
    if sum(table.draws) != drawn or wall.head < head0 or wall.tail > tail0:
        raise _fail(f"{w}.draws", f"{sum(table.draws)} draws in all, but the wall has given {drawn}")
    melds = list(chain.from_iterable(table.melds))
    if table.calls != (len(melds) + sum([m.added for m in melds]) if melds else 0):
        raise _fail(f"{w}.calls", f"{table.calls}, but {len(melds)} melds were made")
    if sum(table.payments):
        raise _fail(f"{w}.payments", "do not sum to zero")
    phase = table.phase
    if actions and actions[-1][0] == "win" and phase not in ("over", "claim", "rob"):
        raise _fail(f"{w}.phase", f"{phase!r} after a win")
    if phase == "predraw" and (not actions or actions[-1][0] not in ("discard", "pass")
                               or table.turn_seat != (table.discarder + 1) % n):
        raise _fail(f"{w}.phase", "a pre-draw phase comes only after a discard nobody claimed")
    # A snapshot read from JSON holds lists, one taken in-process Actions (tuples) as they stand; the default
    # check reads no actions.
    if type(rules).check_state is not Rules.check_state and (
            has_list(actions) if type(actions) in _SEQUENCES else list in set(map(type, actions))):
        actions = [Action.from_compact(a) if type(a) is list else a for a in actions]  # noqa: E721
    rules.check_state(table, actions)
    if phase == "predraw":
        seat = table.turn_seat
        caps = rules.capabilities
        if not (caps.pre_draw and rules.can_draw(table) and (
                rules.pre_draw_window(table, seat) if window == "all" else rules.pre_draw_actions(table, seat))):
            raise _fail(f"{w}.phase", "a pre-draw phase with no declaration on offer")
    table.forget_ready()  # the rules' answers above may have filled the cache; the engine starts clean


def open_window(rules: Rules, window: str, table: Table) -> dict[int, tuple[Action, ...]]:
    """The claim (or rob) window the flow opens in the table's phase: the options on offer per seat (nothing the
    rules read has changed since it opened). Leaves the table's ready cache clean."""
    if table.phase == "claim":
        tile, source = table.last_discard, table.discarder
        offered = (rules.claim_options(table, tile, source) if rules.capabilities.custom_claims
                   else claims.standard_options(rules, table, tile, source))
        expected = claims.collect(rules, table, tile, offered, source, window) if offered or window == "all" else {}
    else:
        expected = claims.collect_robbers(rules, table, table.kong_tile, table.kong_seat, window)
    table.forget_ready()
    return expected


def _dealt_tail_offset(rules: Rules, table: Table) -> int:
    """How many tiles the rules' deal hook takes off the wall's tail (Yunxiao's gold indicator: one). Asked of
    the hook itself: it only reads the table and returns effects (:mod:`hupai.rules.contract`), and the count
    it takes does not depend on which tiles are there."""
    known = _TAIL_OFFSETS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    count = sum(effect.count for effect in rules.on_deal(table) if isinstance(effect, TakeFromTail))
    if len(_TAIL_OFFSETS) >= 16:
        _TAIL_OFFSETS.clear()
    _TAIL_OFFSETS[id(rules)] = (rules, count)
    return count


# The count per rules object (kept in the entry, so its id is not reused while the entry lives): the hook builds
# the whole deal's effects (Yunxiao's and Kawuxing's state) only to be counted here, on every restore.
_TAIL_OFFSETS: dict[int, tuple[Rules, int]] = {}


def _meld(data: Any, where: str, seat: int, n: int) -> tuple[str, Sequence[int], int]:
    """One meld ``[type, tiles, concealed, source, added, claimed tile]``: returns type, tiles, source."""
    if type(data) is not list or len(data) != 6:  # noqa: E721
        raise _fail(where, "must be a list [type, tiles, concealed, source, added, claimed tile]")
    kind, tiles, concealed, source, added, claimed_tile = data
    if type(kind) is not str or kind not in _MELD_TYPES:  # noqa: E721
        raise _fail(f"{where}[0]", f"{_show(kind)} is not a meld type")
    size = 3 if kind != "kong" else 4
    if not _ok_ints(tiles, 0, 33, size):
        _ints(tiles, f"{where}[1]", 0, 33, size)
    first = tiles[0]
    if kind == "chow":
        if first >= 27 or first % 9 > 6 or list(tiles) != [first, first + 1, first + 2]:
            raise _fail(f"{where}[1]", "a chow is a run of one suit")
    elif tiles.count(first) != size:
        raise _fail(f"{where}[1]", f"a {kind} is of one kind")
    if type(concealed) is not bool or type(added) is not bool:  # noqa: E721
        raise _fail(where, "concealed and added must be bools")
    if type(source) is not int or type(claimed_tile) is not int:  # noqa: E721
        raise _fail(where, "source and claimed tile must be ints")
    if not -1 <= source < n or source == seat:
        raise _fail(f"{where}[3]", f"{_show(source)} is not another seat (or -1)")
    if not -1 <= claimed_tile <= 33 or (source >= 0) != (claimed_tile >= 0):
        raise _fail(f"{where}[5]", "a claimed meld names both its source seat and its claimed tile")
    if concealed and (kind != "kong" or source >= 0 or added):
        raise _fail(where, "only an unclaimed, unadded kong is concealed")
    if added and kind != "kong":
        raise _fail(where, "only a kong is added")
    return kind, tiles, source


def _kind_counts(tiles: Sequence[int]) -> list[int]:
    found = Counter(tiles)
    return [found[k] for k in range(34)]


def _check_tiles(copies: list[int], w: str, live: Sequence[int], hands: Sequence[Sequence[int]],
                 meld_tiles: list[int], stand_ins: tuple[tuple[int, int] | None, int], piles: Sequence[Sequence[int]],
                 aside: Sequence[int], phase: str, kong_tile: int) -> None:
    # Counted with C loops (Counter, map, zip): this runs on every restore.
    placed = Counter(chain(live, meld_tiles, *piles, aside))
    if phase == "over" and 0 <= kong_tile < 34:  # a robbed kong's tile went to its robber's win
        placed[kong_tile] += 1
    held = list(map(sum, zip(*hands, strict=True)))
    counts = [copies[k] - placed[k] - held[k] for k in range(34)]
    stand_in, chows = stand_ins
    if stand_in and chows:
        # A chow recorded a tile of kind ``physical`` as kind ``recorded`` (Yunxiao's 白板 as the gold, YX-7).
        recorded, physical = stand_in
        moved = min(chows, max(0, -counts[recorded]), max(0, counts[physical]))
        counts[recorded] += moved
        counts[physical] -= moved
    if any(counts):
        from ...tiles import format_tiles

        kind = next(k for k in range(34) if counts[k])
        what = "missing" if counts[kind] > 0 else "extra"
        raise _fail(w, f"tile conservation: {abs(counts[kind])} {what} {format_tiles([kind])} "
                       f"(wall, hands, melds, discards and the rules' own places)")
