"""``_core.lean_turn``, the lean turn's one crossing (cpp/register_turn.cpp). It reads the engine's per-hand pack
and writes only plain buffers: the two hand counts it moves and the two per-seat counters (bytearrays); the
ready cache comes back as a new list when a flag changed (the same list when none did), and every list and event
stays the flow's to change; the 漏胡 masks are ints it reads, the seats' meld counts the sizes of their meld
records (bytes). A malformed argument (an engine bug, never a player's action: players reach it only with a legal
discard) must raise before any byte changes. Its results on real tables are compared with the general path in
tests/game/test_lean_turn.py."""

from __future__ import annotations

import copy
import random

import pytest
from hupai._core import discard_tile, lean_turn, pile_tuples
from hupai.actions import ACTIONS
from hupai.game import Game

# The pack's items (MahjongFlow._pack_turn).
HANDS, DRAWS, MADE, MELDS, PUNGS, LOUHU, ACTIONS_, WALL, FORMS, PILES = range(10)
PACK_SIZE = 10


def _ready_game(seed: int = 7) -> tuple[Game, list]:
    """A Guangdong table whose dealer is to discard, and the call its lean turn would make."""
    game = Game("guangdong", seed=seed, dealer=0, claim_window="eligible")
    flow = game._flow
    table = game.table
    seat = table.turn_seat
    tile = next(k for k in range(34) if table.hands[seat][k])
    wall = table.wall
    args = [flow._turn_pack, table.ready_bytes, seat, tile, table.drawn, wall.head, wall.tail - flow._dead_wall,
            flow._chowers[seat]]
    return game, args


def _buffers(value: object, found: list[bytearray] | None = None) -> list[bytearray]:
    """Every bytearray reachable from ``value`` through lists and tuples (what the core could write)."""
    found = [] if found is None else found
    if isinstance(value, bytearray):
        if all(value is not seen for seen in found):
            found.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _buffers(item, found)
    return found


def _state(game: Game, args: list) -> tuple:
    """The table, events, ready cache and the bytes of every buffer in the call."""
    return (copy.deepcopy((game.table.to_json(), list(game._flow.events), list(game.table.ready),
                           list(game.table.louhu))),
            [bytes(buffer) for buffer in _buffers(args)])


def _with(args: list, index: int, value: object) -> list:
    out = list(args)
    out[index] = value
    return out


def _pack_with(args: list, item: int, value: object) -> list:
    pack = list(args[0])
    pack[item] = value
    return _with(args, 0, tuple(pack))


def _not_held(args: list) -> int:
    return next(k for k in range(34) if not args[0][HANDS][args[2]][k])


def _alias_hands(args: list) -> list:
    hands = list(args[0][HANDS])
    hands[1] = hands[0]
    return _pack_with(args, HANDS, hands)


def _count_above_four(args: list) -> list:
    hands = [bytearray(h) for h in args[0][HANDS]]
    hands[2][5] = 5
    return _pack_with(args, HANDS, hands)


def _full_counter(args: list) -> list:
    made = bytearray(args[0][MADE])
    made[args[2]] = 255
    return _pack_with(args, MADE, made)


def _pile_of_size(size: int):
    def change(args: list) -> list:
        piles = list(args[0][PILES])
        piles[args[2]] = bytearray(size)
        return _pack_with(args, PILES, piles)
    return change


def _fifth_copy(args: list) -> list:
    hands = [bytearray(h) for h in args[0][HANDS]]
    hands[(args[2] + 1) % 4][args[0][WALL][args[5]]] = 4
    return _pack_with(args, HANDS, hands)


@pytest.mark.parametrize("change", [
    lambda a: a[:7],                                          # an argument missing
    lambda a: _with(a, 0, a[0][:5]),                          # a short pack
    lambda a: _with(a, 0, list(a[0])),                        # a pack that is no tuple
    lambda a: _with(a, 1, bytearray([255]) * 3),              # a ready cache of another table size
    lambda a: _with(a, 1, bytearray([255, 255, 2, 255])),     # a ready byte that is no flag (0, 1, 255)
    lambda a: _with(a, 1, bytearray([0, 1, 254, 0])),         # a ready byte that is no flag, next to good ones
    lambda a: _with(a, 1, bytes([255]) * 4),                  # a ready cache that cannot be written
    lambda a: _with(a, 1, [None] * 4),                        # the old cache, a list of flags
    lambda a: _with(a, 1, memoryview(bytearray([255]) * 4)),  # a ready cache that is no bytearray
    lambda a: _with(a, 1, a[0][DRAWS]),                       # the ready cache is the draws counters
    lambda a: _with(a, 1, a[0][MADE]),                        # the ready cache is the discards-made counters
    lambda a: _with(a, 2, 4),                                 # no such seat
    lambda a: _with(a, 2, True),                              # a bool for a seat
    lambda a: _with(a, 2, 2**70),                             # an int beyond C's
    lambda a: _with(a, 3, 34),                                # no such kind
    lambda a: _with(a, 3, _not_held(a)),                      # a tile the discarder does not hold
    lambda a: _with(a, 4, -2),                                # no such drawn tile
    lambda a: _with(a, 5, -1),                                # a wall head before the wall
    lambda a: _with(a, 5, 137),                               # a wall head beyond the wall
    lambda a: _with(a, 5, 1.0),                               # a wall head that is no int
    lambda a: _with(a, 6, 10**6),                             # a live wall ending beyond the wall
    lambda a: _pack_with(a, WALL, bytes([34] * 136)),         # a wall tile of no kind
    lambda a: _pack_with(a, WALL, bytes([255] * 136)),        # a wall byte far beyond the kinds
    lambda a: _pack_with(a, WALL, list(a[0][WALL])),          # a wall of ints, not the buffer
    lambda a: _pack_with(a, WALL, bytearray(a[0][WALL])),     # a wall that is a bytearray, not bytes
    lambda a: _pack_with(a, WALL, memoryview(a[0][WALL])),    # a wall that is a view of the buffer
    lambda a: _pack_with(a, WALL, a[0][WALL] + bytes(1)),     # a wall of 137 tiles: more than 34 kinds hold
    lambda a: _pack_with(a, WALL, a[0][WALL][:a[5]]),         # a wall ending at the head
    lambda a: _pack_with(a, FORMS, 0),                        # no winning form
    lambda a: _with(a, 7, 16),                                # a chow mask beyond four seats
    lambda a: _pack_with(a, HANDS, [bytes(34)] * 4),          # hands that cannot be written
    lambda a: _pack_with(a, HANDS, [bytearray(33)] * 4),      # hands of another size
    lambda a: _pack_with(a, HANDS, a[0][HANDS][:1]),          # a table of one seat
    _alias_hands,                                             # two seats sharing one hand
    _count_above_four,                                        # a fifth copy held
    _fifth_copy,                                              # a fifth copy drawn
    lambda a: _pack_with(a, DRAWS, [0] * 4),                  # counters that are no buffer
    lambda a: _pack_with(a, DRAWS, bytearray(3)),             # counters of another table size
    lambda a: _pack_with(a, DRAWS, a[0][MADE]),               # one buffer for both counters
    _full_counter,                                            # a counter that cannot grow
    lambda a: _pack_with(a, MELDS, [b""] * 3),                # meld records of another table size
    lambda a: _pack_with(a, MELDS, [bytes(30)] * 4),          # five melds
    lambda a: _pack_with(a, MELDS, [bytes(5)] * 4),           # a meld record cut short
    lambda a: _pack_with(a, MELDS, [bytes(13)] * 4),          # two records and a byte
    lambda a: _pack_with(a, MELDS, [[]] * 4),                 # melds as lists of objects, not records
    lambda a: _pack_with(a, MELDS, [bytearray(6)] * 4),       # records in buffers, not the table's bytes
    lambda a: _pack_with(a, MELDS, [None] * 4),               # no records
    lambda a: _pack_with(a, MELDS, (b"",) * 4),               # records that are no list
    lambda a: _pack_with(a, PUNGS, [1 << 34] * 4),            # a pung mask beyond 34 kinds
    lambda a: _pack_with(a, PUNGS, [None] * 4),               # a pung mask that is no int
    lambda a: _pack_with(a, LOUHU, [set()] * 4),              # 漏胡 blocks that are sets, not masks
    lambda a: _pack_with(a, LOUHU, [False] * 4),              # 漏胡 masks that are bools
    lambda a: _pack_with(a, LOUHU, [0.0] * 4),                # 漏胡 masks that are floats
    lambda a: _pack_with(a, LOUHU, [-1] * 4),                 # a negative 漏胡 mask
    lambda a: _pack_with(a, LOUHU, [1 << 35] * 4),            # a 漏胡 mask past its every-tile bit
    lambda a: _pack_with(a, LOUHU, [2**70] * 4),              # a 漏胡 mask beyond a C long long
    lambda a: _pack_with(a, LOUHU, [0] * 3),                  # 漏胡 masks of another table size
    lambda a: _pack_with(a, LOUHU, (0,) * 4),                 # 漏胡 masks that are no list
    lambda a: _pack_with(a, ACTIONS_, a[0][ACTIONS_][:2]),    # discard actions for two seats only
    lambda a: _pack_with(a, ACTIONS_, ((),) * 4),             # discard actions of no kind
    _pile_of_size(255),                                       # a pile buffer one byte short
    _pile_of_size(34),                                        # a pile buffer of a hand's size
    lambda a: _pack_with(a, PILES, [bytes(256)] * 4),         # piles that cannot be written
    lambda a: _pack_with(a, PILES, a[0][PILES][:3]),          # piles of another table size
    lambda a: _pack_with(a, PILES, tuple(a[0][PILES])),       # piles that are no list
])
def test_lean_turn_rejects_malformed_input_and_changes_nothing(change):
    game, args = _ready_game()
    changed = change(args)
    before = _state(game, changed)
    with pytest.raises((TypeError, ValueError)):
        lean_turn(*changed)
    assert _state(game, changed) == before


# Values a corrupted argument or pack item takes in the fuzz below.
_JUNK = [-(2**70), -2, -1, 0, 1, 2, 3, 4, 5, 15, 16, 33, 34, 255, 256, 2**34, 2**35, 2**63, True, False, None, 1.0,
         "1m",
         b"", bytes(34), bytearray(34), bytearray(4), bytearray(3), bytes(6), bytes(7), bytes(24), bytes(30),
         bytearray(6), [], [None] * 4, [0] * 4, [[]] * 4, [set()] * 4, [b""] * 4, [bytes(6)] * 4, [bytes(5)] * 4,
         [bytearray(6)] * 4, [False] * 4, [bytearray(34)] * 4, (), ((),) * 4, set(), object(), bytearray(256),
         [bytearray(256)] * 4, bytearray([255]) * 4, bytearray([2]) * 4, bytearray([1]) * 3]


def _corrupt(rng: random.Random, args: list) -> list:
    """One to three random corruptions of the call: an argument, a pack item, or an item or byte inside one (on
    copies: the game's own lists and buffers stay as they were)."""
    for _ in range(rng.randint(1, 3)):
        where = rng.randrange(4)
        whole = isinstance(args[0], tuple) and len(args[0]) == PACK_SIZE
        if where == 0 or not whole:
            args = _with(args, rng.randrange(8), rng.choice(_JUNK))
        elif where == 1:
            args = _pack_with(args, rng.randrange(PACK_SIZE), rng.choice(_JUNK))
        elif where == 2:
            item = rng.choice([HANDS, MELDS, PUNGS, LOUHU, PILES])
            if isinstance(args[0][item], list) and args[0][item]:
                seats = list(args[0][item])
                seats[rng.randrange(len(seats))] = rng.choice(_JUNK)
                args = _pack_with(args, item, seats)
        else:
            item = rng.choice([HANDS, DRAWS, MADE, WALL])
            if item == WALL and type(args[0][WALL]) is bytes:
                args = _pack_with(args, WALL, bytearray(args[0][WALL]))  # written below, then bytes again
            if item == HANDS and isinstance(args[0][HANDS], list):
                hands = [bytearray(h) if isinstance(h, bytearray) else h for h in args[0][HANDS]]
                target = rng.choice(hands) if hands else None
                if isinstance(target, bytearray) and target:
                    target[rng.randrange(len(target))] = rng.choice([0, 1, 3, 4, 5, 255])
                args = _pack_with(args, HANDS, hands)
            elif isinstance(args[0][item], bytearray) and args[0][item]:
                buffer = bytearray(args[0][item])
                head = args[5] if item == WALL and type(args[5]) is int and 0 <= args[5] < len(buffer) else -1
                buffer[head if head >= 0 else rng.randrange(len(buffer))] = rng.choice([0, 254, 255])
                args = _pack_with(args, item, bytes(buffer) if item == WALL else buffer)
    return args


def test_lean_turn_fuzz_only_refuses_and_a_refusal_changes_nothing():
    """Thousands of corrupted calls: each either plays (a call that happens to be well-formed) or raises
    TypeError/ValueError with every byte, list and event as it was; none crashes."""
    rng = random.Random(30)
    refused = played = 0
    for round_ in range(3000):
        game, args = _ready_game(seed=round_ % 20)
        corrupted = _corrupt(rng, args)
        before = _state(game, corrupted)
        try:
            lean_turn(*corrupted)
        except (TypeError, ValueError):
            refused += 1
            assert _state(game, corrupted) == before
        else:
            played += 1
    assert refused > 2000 and played > 0


def test_lean_turn_plays_the_discard_and_the_draw():
    """No claim: the discard and the draw move one count each and add to the counters; the ready cache's bytes
    are written in place (the deal left every flag unknown, the discarder's is worked out now), and the flow's
    lists and events are left to the flow."""
    for seed in range(40):
        game, args = _ready_game(seed)
        table = game.table
        flow = game._flow
        seat, tile, drawn = args[2], args[3], table.wall.tiles[args[5]]
        hands = [bytes(h) for h in table.hands]
        events = list(flow.events)
        ready = table.ready_bytes
        assert ready == bytearray([255]) * 4  # nothing known after the deal
        got, got_drawn = lean_turn(*args)
        assert ready is table.ready_bytes and len(ready) == 4  # written in place
        got_ready = table.ready
        assert list(flow.events) == events
        assert list(map(list, table.discards)) == [[tile] if s == seat else [] for s in range(4)]  # on its pile
        table.drawn = -1  # (the flow's own bookkeeping after a discard: the rules then read the waiting hand)
        assert got_ready[seat] is game.rules.ready(table, seat)  # the discarder's waiting hand, known at once
        if isinstance(got, int):
            assert table.hands[seat][tile] == hands[seat][tile] - 1 and list(table.discards_made) == [1, 0, 0, 0]
            assert list(table.draws) == [0, 0, 0, 0] and got_drawn == -1  # no draw made
            continue  # someone may claim it: the flow opens the window (the general path's tests)
        nxt = (seat + 1) % 4
        assert got_drawn == drawn  # the wall's tile at the head, drawn
        assert table.hands[seat][tile] == hands[seat][tile] - 1
        assert table.hands[nxt][drawn] == hands[nxt][drawn] + 1 and sum(table.hands[nxt]) == 14
        assert list(table.discards_made) == [1, 0, 0, 0] and list(table.draws) == [0, 1, 0, 0]
        assert got is None or got == tuple(ACTIONS.discard[nxt][k] for k in range(34) if table.hands[nxt][k])
        return
    raise AssertionError("no unclaimable discard in 40 deals")


def test_lean_turn_writes_the_ready_cache_in_place():
    """The cache is one bytearray for the hand, never replaced: a turn writes the flags it learns into it. Every
    known flag is the rules' answer for the seat's waiting hand (the discarder's worked out at its discard), and
    the rules read the same flags as True/False/None."""
    kept = renewed = 0
    for seed in range(6):
        game = Game("guangdong", seed=seed, dealer=0, claim_window="eligible")
        flow = game._flow
        table = game.table
        rng = random.Random(seed)
        while not game.over:
            seat = game.seats_to_act[0]
            legal = game.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            before = table.ready_bytes
            flags = bytes(before)
            lean = flow._lean and table.phase == "turn" and action.kind == "discard" and not action.flag
            game.apply(action)
            if not lean:
                continue
            assert table.ready_bytes is before and set(before) <= {0, 1, 255}
            if bytes(before) == flags:
                kept += 1
            else:
                renewed += 1
            for other in range(4):
                assert table.ready[other] == (None if before[other] == 255 else before[other] == 1)
                if table.ready[other] is not None and sum(table.hands[other]) % 3 == 1:  # a waiting hand
                    assert table.ready[other] is game.rules.ready(table, other)
    assert kept > 300 and renewed > 20


def test_lean_turn_draws_nothing_where_the_live_wall_ends():
    """The live wall ends at the head (``limit``): nobody able to claim gives 0 and no draw, the wall end being the
    flow's to play (_next_turn)."""
    for seed in range(40):
        game, args = _ready_game(seed)
        table = game.table
        got, got_drawn = lean_turn(*_with(args, 6, args[5]))
        if got != 0 and isinstance(got, int):
            continue  # a claim window
        assert got == 0 and got_drawn == -1 and list(table.draws) == [0, 0, 0, 0]
        return
    raise AssertionError("no unclaimable discard in 40 deals")


def test_lean_turn_leaves_a_louhu_block_to_the_flow_draw():
    """GD-11: the next seat's 漏胡 block ends with its draw. The core does not draw then (0, no claim): the flow's
    own draw clears the block."""
    for seed in range(40):
        game, args = _ready_game(seed)
        table = game.table
        table.louhu[1] = 1 << 5
        hands = [bytes(h) for h in table.hands]
        got, got_drawn = lean_turn(*args)
        if got != 0 and isinstance(got, int):
            continue  # a claim window
        assert got == 0 and bytes(table.hands[1]) == hands[1] and list(table.draws) == [0, 0, 0, 0]
        assert got_drawn == -1 and table.louhu[1] == 1 << 5
        return
    raise AssertionError("no unclaimable discard in 40 deals")


def test_pile_tuples_reads_each_pile_up_to_its_count_less_the_claimed():
    piles = [bytearray(256) for _ in range(4)]
    piles[0][:4] = b"\x01\x82\x02\x21"  # the second discard claimed
    piles[1][:1] = b"\x85"
    piles[2][:1] = b"\x07"
    made = bytearray([4, 1, 1, 0])
    assert pile_tuples(piles, made) == ((1, 2, 33), (), (7,), ())
    assert pile_tuples([bytearray(b"\x05\x06")] * 2, bytearray([2, 1])) == ((5, 6), (5,))


@pytest.mark.parametrize("args", [
    ([bytearray(4)] * 4,),                                    # no lengths
    ([bytearray(4)] * 4, bytearray(3)),                       # lengths of another table size
    ([bytearray(4)] * 4, bytes(4)),                           # lengths that are no bytearray
    ((bytearray(4),) * 4, bytearray(4)),                      # piles that are no list
    ([bytearray(4)] * 5, bytearray(5)),                       # five seats
    ([bytes(4)] * 4, bytearray(4)),                           # piles that are no bytearrays
    ([bytearray(4)] * 4, bytearray([0, 5, 0, 0])),            # a count beyond its pile
])
def test_pile_tuples_refuses_malformed_piles(args):
    with pytest.raises((TypeError, ValueError)):
        pile_tuples(*args)


def test_discard_tile_writes_the_hand_the_pile_and_the_count():
    game, args = _ready_game()
    pack, seat, tile = args[0], args[2], args[3]
    held = pack[HANDS][seat][tile]
    discard_tile(pack, seat, tile)
    assert pack[HANDS][seat][tile] == held - 1 and pack[MADE][seat] == 1 and pack[PILES][seat][0] == tile
    assert list(map(list, game.table.discards)) == [[tile] if s == seat else [] for s in range(4)]


@pytest.mark.parametrize("change", [
    lambda p, s, t: (p, s),                                           # an argument missing
    lambda p, s, t: (p[:5], s, t),                                    # a short pack
    lambda p, s, t: (p, 4, t),                                        # no such seat
    lambda p, s, t: (p, True, t),                                     # a bool for a seat
    lambda p, s, t: (p, s, 34),                                       # no such kind
    lambda p, s, t: (p, s, next(k for k in range(34) if not p[HANDS][s][k])),  # a tile not held
    lambda p, s, t: (_pack(p, MADE, bytearray([255] * 4)), s, t),     # a count that cannot grow
    lambda p, s, t: (_pack(p, MADE, [0] * 4), s, t),                  # counts that are no buffer
    lambda p, s, t: (_pack(p, PILES, [bytearray(255)] * 4), s, t),    # piles of another size
    lambda p, s, t: (_pack(p, PILES, p[PILES][:3]), s, t),            # piles of another table size
    lambda p, s, t: (_pack(p, HANDS, [bytes(34)] * 4), s, t),         # hands that cannot be written
    lambda p, s, t: (_pack(p, HANDS, [bytearray(33)] * 4), s, t),     # hands of another size
])
def test_discard_tile_refuses_malformed_input_and_changes_nothing(change):
    game, args = _ready_game()
    changed = list(change(args[0], args[2], args[3]))
    before = _state(game, changed)
    with pytest.raises((TypeError, ValueError)):
        discard_tile(*changed)
    assert _state(game, changed) == before


def _pack(pack: tuple, item: int, value: object) -> tuple:
    out = list(pack)
    out[item] = value
    return tuple(out)
