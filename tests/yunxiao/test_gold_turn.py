"""Yunxiao's quiet discard in one crossing (``MahjongFlow._gold_discard``, ``_core.yunxiao_turn``, claim window
"eligible"): a discard nobody may claim, no 游 level moved, no declaration before the next draw, and that draw. It
must leave exactly the state, events and legal actions the general path (every claim, discard and turn hook
asked) leaves, and it must refuse a malformed argument before any byte changes."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hupai._core import yunxiao_turn
from hupai.bots import GreedyBot, RandomBot
from hupai.ev import EVBot
from hupai.game import Game
from hupai.game.mahjong import flow as flow_module

# The pack's items (MahjongFlow._pack_turn).
HANDS, DRAWS, MADE, MELDS, PUNGS, LOUHU, ACTIONS_, WALL, FORMS, PILES = range(10)


def _pair(seed: int, options: dict[str, object] | None = None) -> tuple[Game, Game]:
    quick = Game("yunxiao", seed=seed, dealer=seed % 4, options=options, claim_window="eligible")
    plain = Game("yunxiao", seed=seed, dealer=seed % 4, options=options, claim_window="eligible")
    plain._flow._gold_turn = None  # the general path: every hook asked
    plain._flow._quick_turn = None
    return quick, plain


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, EVBot])
def test_the_quiet_gold_discard_leaves_the_state_the_general_path_leaves(bot, monkeypatch):
    """YX-11 (no gold claimed), YX-12/YX-23 (the wall's end), YX-14 (claims), YX-17 (a 漏胡 block the draw ends),
    YX-26 (游 levels), YX-27/YX-30 (declarations before a draw): snapshots, events and the legal actions of the
    seats to act are equal after every action."""
    assert _pair(0)[0]._flow._gold_turn is not None
    assert Game("yunxiao", seed=0)._flow._gold_turn is None  # claim_window "all": every discard opens a window
    calls: Counter[str] = Counter()

    def counted(*args: object) -> object:
        done = yunxiao_turn(*args)
        calls["quiet" if type(done) is tuple else "claim" if done == 0 else "general"] += 1
        return done

    monkeypatch.setattr(flow_module, "yunxiao_turn", counted)
    hands = 12 if bot is EVBot else 30
    for seed in range(hands):
        quick, plain = _pair(seed, {"buda_loose": True} if seed % 5 == 4 else None)
        bots = [bot(seed * 4 + i) for i in range(4)]
        while not quick.over:
            seat = quick.current.seats[0]
            action = bots[seat].act(quick.observation(seat))
            if seed % 3 == 0 and quick.table.phase == "turn":  # a 漏胡 block on the next seat, for its draw to end
                for game in (quick, plain):
                    game.table.louhu[(seat + 1) % 4] |= 1 << seed % 34
            quick.apply(action)
            plain.apply(action)
            assert quick.snapshot() == plain.snapshot()
            assert list(quick.table.ready_bytes) == list(plain.table.ready_bytes)
            for other in quick.current.seats:
                assert quick.legal_actions(other) == plain.legal_actions(other)
        assert quick.to_json() == plain.to_json()
    assert calls["quiet"] > hands * 5 and calls["claim"] > hands * 2 and calls["general"] > hands


def _ready_game(seed: int = 3) -> tuple[Game, list]:
    """A Yunxiao table in mid-hand whose seat to act would discard quietly (RandomBot's turns up to it), and the
    call of that discard."""
    game = Game("yunxiao", seed=seed, dealer=0, claim_window="eligible")
    bot = RandomBot(seed)
    while True:
        table = game.table
        seat = game.current.seats[0]
        if table.phase == "turn" and table.discards_made[seat] >= 2:
            gold, levels, reserve, loose, rob = game.rules.gold_turn(table)
            for tile in range(34):
                if table.hands[seat][tile] and tile != gold:
                    args = [game._flow._turn_pack, table.ready_bytes, seat, tile, table.drawn, table.wall.head,
                            table.wall.tail - reserve, gold, levels, loose, -1 if table.calls else rob]
                    if type(yunxiao_turn(*copy.deepcopy(args))) is tuple:  # (on copies: nothing of the game moves)
                        return game, args
        game.apply(bot.act(game.observation(seat)))


def _buffers(value: object, found: list[bytearray]) -> list[bytearray]:
    """Every bytearray reachable from ``value`` through lists and tuples (what the core could write)."""
    if isinstance(value, bytearray):
        if all(value is not seen for seen in found):
            found.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _buffers(item, found)
    return found


def _state(game: Game, args: list) -> tuple:
    """The table, its events and ready cache, and the bytes of every buffer of the game's pack and of the call."""
    buffers = _buffers([game._flow._turn_pack, game.table.ready_bytes, args], [])
    return (copy.deepcopy((game.table.to_json(), list(game._flow.events), list(game.table.ready_bytes))),
            [bytes(buffer) for buffer in buffers])


def _with(args: list, index: int, value: object) -> list:
    out = list(args)
    out[index] = value
    return out


def _pack_with(args: list, item: int, value: object) -> list:
    pack = list(args[0])
    pack[item] = value
    return _with(args, 0, tuple(pack))


def _hands_with(args: list, seat: int, kind: int, count: int) -> list:
    hands = [bytearray(hand) for hand in args[0][HANDS]]
    hands[seat][kind] = count
    return _pack_with(args, HANDS, hands)


@pytest.mark.parametrize("change", [
    lambda a: a[:10],                                         # an argument missing
    lambda a: _with(a, 0, a[0][:5]),                          # a short pack
    lambda a: _with(a, 1, bytearray([255]) * 3),              # a ready cache of another table size
    lambda a: _with(a, 1, bytearray([2]) * 4),                # a ready byte that is no flag
    lambda a: _with(a, 1, a[0][DRAWS]),                       # the ready cache is the draws counters
    lambda a: _with(a, 2, 4),                                 # no such seat
    lambda a: _with(a, 3, 34),                                # no such kind
    lambda a: _with(a, 3, next(k for k in range(34) if not a[0][HANDS][a[2]][k])),  # a tile not held
    lambda a: _with(a, 4, -2),                                # no such drawn tile
    lambda a: _with(a, 5, 137),                               # a wall head beyond the wall
    lambda a: _with(a, 6, 10**6),                             # a wall end beyond the wall
    lambda a: _with(a, 7, 34),                                # a gold of no kind
    lambda a: _with(a, 7, True),                              # a bool for the gold
    lambda a: _with(a, 8, [0] * 3),                           # 游 levels of another table size
    lambda a: _with(a, 8, [4 if s == a[2] else 0 for s in range(4)]),  # a 游 level beyond 三游
    lambda a: _with(a, 8, (0,) * 4),                          # 游 levels that are no list
    lambda a: _with(a, 9, 1),                                 # buda_loose that is no bool
    lambda a: _with(a, 10, 4),                                # a dealer who is no seat
    lambda a: _with(a, 10, None),                             # no int for the dealer
    lambda a: _pack_with(a, WALL, bytes([34] * 136)),         # a wall tile of no kind
    lambda a: _pack_with(a, HANDS, [bytearray(33)] * 4),      # hands of another size
    lambda a: _hands_with(a, 2, 5, 5),                        # a fifth copy held
    lambda a: _hands_with(a, 1, a[0][WALL][a[5]], 4),         # a fifth copy drawn
    lambda a: _pack_with(a, MELDS, [bytes(6)] * 4),           # a meld record of no meld
    lambda a: _pack_with(a, MELDS, [bytes([12, 26, 0, 0, 255, 255])] * 4),  # a chow past its suit's end
    lambda a: _pack_with(a, MELDS, [bytes(30)] * 4),          # five melds
    lambda a: _pack_with(a, LOUHU, [-1] * 4),                 # a negative 漏胡 mask
    lambda a: _pack_with(a, PUNGS, [1 << 34] * 4),            # a pung mask beyond 34 kinds
    lambda a: _pack_with(a, PILES, [bytes(256)] * 4),         # piles that cannot be written
    lambda a: _pack_with(a, MADE, bytearray([255]) * 4),      # a counter that cannot grow
])
def test_yunxiao_turn_rejects_malformed_input_and_changes_nothing(change):
    game, args = _ready_game()
    changed = change(args)
    before = _state(game, changed)
    with pytest.raises((TypeError, ValueError)):
        yunxiao_turn(*changed)
    assert _state(game, changed) == before


def test_a_discard_the_core_does_not_play_quietly_changes_nothing():
    """Each way out (the wall's end, a 漏胡 block, a 游 level that moves) returns None with every buffer as it was
    (a declaration before the draw: see below; a claim: the next test)."""
    game, args = _ready_game()
    seat = args[2]
    outs = [
        _with(args, 6, args[5]),                           # the wall's end
        _pack_with(args, LOUHU, [1] * 4),                  # a 漏胡 block the draw would end
        _with(args, 8, [2 if s == seat else 0 for s in range(4)]),      # the discarder's level falls
    ]
    for changed in outs:
        before = _state(game, changed)
        assert yunxiao_turn(*changed) is None
        assert _state(game, changed) == before


def test_a_discard_someone_may_claim_is_made_by_the_core_and_the_window_left_to_the_flow():
    """YX-14: where a seat may claim (a pung here), the core makes the discard (hand, pile, discards made) and fills
    every seat's ready byte, draws nothing and returns 0; the flow opens the window (the first test: the state the
    general path leaves)."""
    game, args = _ready_game()
    seat, tile = args[2], args[3]
    changed = _hands_with(args, (seat + 2) % 4, tile, 2)
    changed = _with(changed, 1, bytearray([255]) * 4)
    pack = changed[0]
    hand, made, draws = bytes(pack[HANDS][seat]), pack[MADE][seat], bytes(pack[DRAWS])
    assert yunxiao_turn(*changed) == 0
    assert pack[HANDS][seat][tile] == hand[tile] - 1 and pack[MADE][seat] == made + 1
    assert pack[PILES][seat][made] == tile and bytes(pack[DRAWS]) == draws
    assert 255 not in changed[1]


def test_a_declaration_before_the_draw_leaves_the_discard_to_the_general_path():
    """YX-27: the 下家 at a 游 level may declare 游金 before its draw; YX-30: at its first draw, a non-dealer waiting
    on the gold may rob it while nobody has called. The core leaves such a discard to the hooks (nothing written),
    and plays it when no call or level allows a declaration."""
    game, args = _ready_game()
    seat, gold = args[2], args[7]
    after = (seat + 1) % 4
    assert type(yunxiao_turn(*copy.deepcopy(args))) is tuple
    leveled = _with(args, 8, [1 if s == after else 0 for s in range(4)])
    before = _state(game, leveled)
    assert yunxiao_turn(*leveled) is None
    assert _state(game, leveled) == before
    # The 下家's first draw, its hand four runs and an honour alone (its pair made by that honour or a drawn gold,
    # YX-8, not by the discard): 抢金 while the gold lies.
    hand = bytearray(34)
    near = {args[3] + step for step in range(-2, 3)} | {gold}  # (no chow of the discard, no gold in a run)
    runs = [start for start in range(0, 27, 3) if not {start, start + 1, start + 2} & near][:4]
    held = [sum(h[kind] for s, h in enumerate(args[0][HANDS]) if s != after) for kind in range(34)]
    single = next(kind for kind in range(27, 33) if kind not in near and held[kind] < 4)
    for kind in [start + step for start in runs for step in range(3)] + [single]:
        hand[kind] += 1
    first = _hands_with(args, after, 0, 0)
    first[0][HANDS][after][:] = hand
    draws = bytearray(first[0][DRAWS])
    draws[after] = 0
    first = _pack_with(first, DRAWS, draws)
    first = _pack_with(first, MELDS, [b"" if s == after else records for s, records in enumerate(args[0][MELDS])])
    ready = bytearray(args[1])
    ready[after] = 255
    first = _with(first, 1, ready)
    for dealer, out in ((after, False), ((after + 2) % 4, True), (-1, False)):
        robbing = _with(first, 10, dealer)
        before = _state(game, robbing)
        done = yunxiao_turn(*copy.deepcopy(robbing))
        assert (done is None) == out, dealer
        assert _state(game, robbing) == before


def test_a_first_draw_without_a_declaration_is_played_by_the_core(monkeypatch):
    """YX-30: a non-dealer's first draw offers 抢金 only to a seat waiting on the gold while nobody has claimed;
    any other first draw follows a quiet discard in the core's one crossing (it left them all to the general path
    before), with the state the general path leaves (the test above)."""
    quiet_first: Counter[bool] = Counter()

    def counted(*args: object) -> object:
        pack, seat = args[0], args[2]
        first = pack[DRAWS][(seat + 1) % 4] == 0  # (read before the call: a quiet one counts the draw)
        done = yunxiao_turn(*args)
        if first:
            quiet_first[type(done) is tuple] += 1
        return done

    monkeypatch.setattr(flow_module, "yunxiao_turn", counted)
    for seed in range(6):
        game = Game("yunxiao", seed=seed, dealer=seed % 4, claim_window="eligible")
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while not game.over:
            seat = game.current.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert quiet_first[True] >= 6


def test_a_discard_past_a_ready_seat_is_played_by_the_core(monkeypatch):
    """YX-14: a seat known ready (its cache byte 1) claims a discard only when it is one of its waits; the core works
    its waits out and plays any other discard quietly (it left every discard past a ready seat to the general path
    before), with the state the general path leaves (the first test). A wait of a ready seat still leaves."""
    past_ready: Counter[bool] = Counter()

    def counted(*args: object) -> object:
        ready, seat, tile, gold = args[1], args[2], args[3], args[7]
        others = [s for s in range(4) if s != seat and ready[s] == 1]  # (read before: the call fills the cache)
        done = yunxiao_turn(*args)
        if others and tile != gold:
            past_ready[type(done) is tuple] += 1
        return done

    monkeypatch.setattr(flow_module, "yunxiao_turn", counted)
    for seed in range(8):
        game = Game("yunxiao", seed=seed, dealer=seed % 4, claim_window="eligible")
        bots = [GreedyBot(seed * 4 + i) for i in range(4)]
        while not game.over:
            seat = game.current.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert past_ready[True] >= 20

    game, args = _ready_game()
    seat, tile, gold = args[2], args[3], args[7]
    other = next(s for s in range(4) if s != seat and not game.table.melds[s])
    runs = [start for start in (0, 3, 9, 12, 18, 21) if not {start, start + 1, start + 2} & {tile, gold}][:4]
    hand = bytearray(34)
    for kind in [start + step for start in runs for step in range(3)] + [tile]:  # four runs and the discard alone
        hand[kind] += 1
    changed = _hands_with(args, other, 0, 0)
    changed[0][HANDS][other][:] = hand
    changed = _with(changed, 1, bytearray(1 if s == other else 0 for s in range(4)))
    assert yunxiao_turn(*changed) == 0  # the discard is the ready seat's wait (a pair): the flow's window


def test_a_fact_that_changes_gives_the_table_a_new_mapping():
    """The flow replaces ``table.extras`` when a rule hook sets a fact (YX-16's chow turn, YX-26's levels, YX-23's
    kongs), the old mapping as it was: an environment's observer tells by one identity test whether the facts it
    froze are still the table's, and shows the new ones."""
    from hupai.game import Observer
    from hupai.observation import thaw

    changes = 0
    for seed in range(4):
        game = Game("yunxiao", seed=seed, dealer=seed % 4, claim_window="eligible")
        observer = Observer(game)
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while not game.over:
            seat = game.current.seats[0]
            before, kept = game.table.extras, copy.deepcopy(game.table.extras)
            assert thaw(observer.buffers(game, seat)[15]) == before  # (the facts it shows: the table's now)
            game.apply(bots[seat].act(game.observation(seat)))
            assert before == kept  # (never changed in place)
            if game.table.extras != kept:
                changes += 1
                assert game.table.extras is not before
    assert changes >= 8
