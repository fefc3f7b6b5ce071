"""The engine's hot-path core scans (``_core.claim_scan``, ``turn_scan``) against slow, obviously correct Python
references; the default ``Rules.claim_options`` (built on claim_scan) against a plain re-implementation of the old
pure-Python default; ``Game.apply``'s lookup of the chosen legal action; and malformed input to each scan.

The completeness oracle is ``hupai.is_win`` / ``hupai.shanten`` (checked against the reference elsewhere).
"""

import random
from collections import Counter

import hupai
import pytest
from hupai import _core
from hupai.actions import ACTIONS, CHOW_RUNS
from hupai.bots import RandomBot
from hupai.game import Action
from hupai.game.mahjong.claims import standard_options
from hupai.hand import Meld

NUM_KINDS = 34
WALL = [kind for kind in range(NUM_KINDS) for _ in range(4)]
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
FORMS = [1, 1 | 8, 1 | 2, 1 | 2 | 8, 1 | 4, 2, 8, 63]


def scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags):
    """claim_scan as Rules.claim_options uses it: the readiness it worked out stored into ``ready``."""
    shapes, after = _core.claim_scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags)
    if after is not None:
        assert type(after) is tuple and len(after) == len(ready)
        for seat, (old, new) in enumerate(zip(ready, after, strict=True)):
            assert old is None or new is old, seat  # a known value is never changed
        assert after != tuple(ready)  # returned only when something was worked out
        ready[:] = after
    return shapes


def pung_kinds(melds):
    return sum({1 << meld.tiles[0] for meld in melds if meld.type == "pung"})


def tscan(hand, melds, drawn, forms):
    """turn_scan as Game.legal_actions calls it."""
    return _core.turn_scan(hand, melds, pung_kinds(melds), drawn, forms)


# ------------------------------------------------------------------------------------------ hand builders


def complete_hand(rng, melds, forms=1):
    """Counts (each at most 4) of a complete concealed part of 3 * (4 - melds) + 2 tiles."""
    if melds == 0 and forms & 8 and rng.random() < 0.2:
        counts = [0] * NUM_KINDS
        for kind in ORPHANS:
            counts[kind] = 1
        counts[rng.choice(ORPHANS)] += 1
        return counts
    if melds == 0 and forms & 2 and rng.random() < 0.3:
        counts = [0] * NUM_KINDS
        for kind in rng.sample(range(NUM_KINDS), 7):
            counts[kind] = 2
        return counts
    while True:
        counts = [0] * NUM_KINDS
        counts[rng.randrange(NUM_KINDS)] += 2
        for _ in range(4 - melds):
            if rng.random() < 0.5:
                low = 9 * rng.randrange(3) + rng.randrange(7)
                for kind in (low, low + 1, low + 2):
                    counts[kind] += 1
            else:
                counts[rng.randrange(NUM_KINDS)] += 3
        if max(counts) <= 4:
            return counts


def random_hand(rng, size):
    counts = [0] * NUM_KINDS
    for kind in rng.sample(WALL, size):
        counts[kind] += 1
    return counts


def held_kinds(counts):
    return [kind for kind in range(NUM_KINDS) if counts[kind]]


# ---------------------------------------------------------------------------------------- the references


def no_form_applies(melds, forms):
    """Only the standard form allows exposed melds (the others are concealed hands)."""
    return melds > 0 and not forms & 1


def ref_ready(counts, melds, forms):
    """Is the waiting hand (3 * (4 - melds) + 1 tiles) ready: shanten <= 0? False for any other size."""
    if not 0 <= melds <= 4 or sum(counts) != 13 - 3 * melds or no_form_applies(melds, forms):
        return False
    return hupai.shanten(bytes(counts), melds=melds, forms=forms) <= 0


def ref_complete(counts, melds, forms):
    """Is the concealed part (3 * (4 - melds) + 2 tiles) complete? False for any other size."""
    if not 0 <= melds <= 4 or sum(counts) != 14 - 3 * melds or no_form_applies(melds, forms):
        return False
    return hupai.is_win(bytes(counts), melds=melds, forms=forms)


def ref_wins_on(counts, melds, tile, forms):
    if counts[tile] >= 4:
        return False
    with_tile = list(counts)
    with_tile[tile] += 1
    return ref_complete(with_tile, melds, forms)


def ref_chow_bits(counts, tile):
    """8: the run (tile-2, tile-1, tile); 16: (tile-1, tile, tile+1); 32: (tile, tile+1, tile+2)."""
    if tile >= 27:
        return 0
    first, last = tile - tile % 9, tile - tile % 9 + 8
    bits = 0
    for low, bit in ((tile - 2, 8), (tile - 1, 16), (tile, 32)):
        run = (low, low + 1, low + 2)
        if first <= low and low + 2 <= last and all(counts[kind] > 0 for kind in run if kind != tile):
            bits |= bit
    return bits


def ref_claim_scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags):
    """The claim bits and the ready list as claim_scan must leave it."""
    n = len(hands)
    ready_after = list(ready)
    out = 0
    for seat in range(n):
        if seat == discarder:
            continue
        counts = list(hands[seat])
        bits = 0
        if flags & 4:
            if ready_after[seat] is None:
                ready_after[seat] = ref_ready(counts, len(melds[seat]), forms)
            if ready_after[seat] and ref_wins_on(counts, len(melds[seat]), tile, forms):
                bits |= 1
        if flags & 1:
            if counts[tile] >= 2:
                bits |= 2
            if counts[tile] >= 3 and flags & 2:
                bits |= 4
            if chow_seats >> seat & 1:
                bits |= ref_chow_bits(counts, tile)
        out |= bits << (8 * seat)
    return out, ready_after


def ref_turn_scan(counts, melds, drawn, forms):
    bits = 0
    if drawn >= 0 and forms > 0 and ref_complete(counts, len(melds), forms):
        bits |= 1
    if 4 in counts or any(meld.type == "pung" and counts[meld.tiles[0]] > 0 for meld in melds):
        bits |= 2
    return bits


# ------------------------------------------------------------------------------------------- claim_scan


def random_table(rng):
    """A random claim_scan query: hands (some one tile from complete, some between a claim and its discard),
    placeholder melds, a ready cache of True/False/None, and the discard and its flags."""
    n = rng.choice([4, 4, 4, 3, 2])
    forms = rng.choice(FORMS)
    wall = list(WALL)
    rng.shuffle(wall)
    hands, melds, waits_on = [], [], []
    for _ in range(n):
        m = rng.choice([0, 0, 0, 1, 1, 2, 3, 4])
        shape = rng.random()
        if shape < 0.45:
            counts = complete_hand(rng, m, forms)
            removed = rng.choice(held_kinds(counts))
            counts[removed] -= 1
            waits_on.append(removed)
        else:
            size = 13 - 3 * m if shape < 0.9 else rng.choice([14 - 3 * m, rng.randrange(15)])
            counts = [0] * NUM_KINDS
            for kind in wall[:size]:
                counts[kind] += 1
            del wall[:size]
        hands.append(bytearray(counts))
        melds.append(["meld"] * m)
    ready = [rng.choice([None, None, None, True, False]) for _ in range(n)]
    discarder = rng.randrange(n)
    pick = rng.random()
    if pick < 0.4 and waits_on:
        tile = rng.choice(waits_on)
    elif pick < 0.75:
        held = held_kinds(hands[rng.randrange(n)])
        tile = rng.choice(held) if held else rng.randrange(NUM_KINDS)
    else:
        tile = rng.randrange(NUM_KINDS)
    chow_seats = 1 << (discarder + 1) % n if rng.random() < 0.5 else rng.randrange(16)
    flags = 7 if rng.random() < 0.4 else rng.randrange(8)
    return hands, melds, ready, tile, discarder, forms, chow_seats, flags


def test_claim_scan_matches_the_reference_on_random_tables():
    """The bits of every seat and the ready cache filled in (exactly where a win check was asked) match."""
    rng = random.Random(20240611)
    seen = Counter()
    for case in range(5000):
        hands, melds, ready, tile, discarder, forms, chow_seats, flags = random_table(rng)
        ready_before = list(ready)
        hands_before = [bytes(hand) for hand in hands]
        expected, ready_after = ref_claim_scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags)
        got = scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags)
        info = (case, [list(hand) for hand in hands_before], [len(m) for m in melds], ready_before, tile, discarder,
                forms, chow_seats, flags)
        assert got == expected, info
        assert ready == ready_after, info
        assert all(value is None or type(value) is bool for value in ready), info
        assert [bytes(hand) for hand in hands] == hands_before, info  # the hands are read, never written
        assert got >> (8 * discarder) & 0xFF == 0, info
        assert got >> (8 * len(hands)) == 0, info
        for seat in range(len(hands)):
            bits = expected >> (8 * seat) & 0xFF
            seen.update(bit for bit in (1, 2, 4, 8, 16, 32) if bits & bit)
            if ready_before[seat] is None and ready_after[seat] is not None:
                seen[f"filled {ready_after[seat]}"] += 1
    # Every kind of claim occurred, and both fills: the comparison meant something.
    assert all(seen[key] >= 50 for key in (1, 2, 4, 8, 16, 32, "filled True", "filled False")), seen


def test_claim_scan_fills_ready_only_when_wins_are_checked():
    """None entries become shanten <= 0 for every non-discarder seat when flags & 4, and stay None otherwise
    (and for the discarder); known entries are trusted, never recomputed."""
    ready_hand = hupai.tiles.to_counts("123m456p789s1122z")  # waits on 1z and 2z
    far_hand = hupai.tiles.to_counts("147m258p369s1357z")
    assert hupai.shanten(far_hand) > 0
    hands = [bytearray(ready_hand), bytearray(ready_hand), bytearray(far_hand), bytearray(ready_hand)]
    melds = [[], [], [], []]
    tile = 27  # 1z

    ready = [None] * 4
    assert scan(hands, melds, ready, tile, 0, 1, 0, 3) == (2 << 8) | (2 << 24)  # pungs only
    assert ready == [None] * 4

    ready = [None] * 4
    assert scan(hands, melds, ready, tile, 0, 1, 0, 4) == (1 << 8) | (1 << 24)
    assert ready == [None, True, False, True]  # the discarder is not looked at

    ready = [None, False, True, None]  # a known False blocks the win; a known True is trusted as it is
    assert scan(hands, melds, ready, tile, 0, 1, 0, 4) == 1 << 24
    assert ready == [None, False, True, True]

    ready = [None] * 4
    bits = scan(hands, melds, ready, 28, 2, 1, 0, 7)  # 2z from seat 2: seats 3, 0, 1 win and pung
    assert bits == (1 | 2) * 0x01000101
    assert ready == [True, True, None, True]


def test_claim_scan_on_a_known_table():
    """5m discarded by seat 0, every other seat allowed to chow."""
    hands = [bytearray(hupai.tiles.to_counts(text)) for text in
             ("123m456p789s1122z", "3467m111p9s22s555z", "46m99s", "2555m")]
    melds = [[], [], ["m"] * 3, ["m"] * 3]
    ready = [None] * 4
    bits = scan(hands, melds, ready, 4, 0, 1, 0b1110, 7)
    assert bits >> 8 & 0xFF == 8 | 16 | 32  # 3-4-5m, 4-5-6m and 5-6-7m; no 5m held
    assert bits >> 16 & 0xFF == 1 | 16  # 456m 99s wins; 4-5-6m
    assert bits >> 24 & 0xFF == 2 | 4  # three 5m: pung and kong; 2555m waits on 2m only; no run around 5m
    assert ready == [None, False, True, True]
    assert scan(hands, melds, [None] * 4, 4, 0, 1, 0b1110, 5) >> 24 & 0xFF == 2  # no kong allowed
    assert scan(hands, melds, [None] * 4, 4, 0, 1, 0, 7) == (1 << 16) | (6 << 24)  # no chowers
    assert scan(hands, melds, [None] * 4, 4, 0, 1, 0b1110, 4) == 1 << 16  # wins only


# ---------------------------------------------------------------------------- Rules.claim_options (default)


def old_claim_options(rules, table, tile, discarder):
    """The old pure-Python default: in turn order from the discarder, win (complete and may_win), exposed kong
    (three held, melds claimable, can_kong), pung (two held, melds claimable), then the chow seats' chows in
    CHOW_RUNS order."""
    n = table.num_players
    melds_ok = rules.melds_claimable(table)
    out = {}
    for step in range(1, n):
        seat = (discarder + step) % n
        counts = list(table.hands[seat])
        options = []
        if ref_wins_on(counts, len(table.melds[seat]), tile, int(rules.win_forms)) and rules.may_win(
                table, seat, tile, "discard"):
            options.append(Action("win", seat, tile))
        if counts[tile] >= 3 and melds_ok and rules.can_kong(table):
            options.append(Action("kong", seat, tile, (), "exposed"))
        if counts[tile] >= 2 and melds_ok:
            options.append(Action("pung", seat, tile))
        if melds_ok and seat in rules.chow_seats(table, discarder):
            for run in CHOW_RUNS[tile]:
                if all(counts[kind] for kind in run if kind != tile):
                    options.append(Action("chow", seat, tile, run))
        if options:
            out[seat] = options
    return out


def test_default_claim_options_match_the_old_python_default_in_real_games():
    """At random points of random Guangdong games, claim_options on arbitrary tiles and discarders (with the ready
    cache reset) equals the old default; the ready cache it fills is right; the game state is left as it was."""
    rng = random.Random(7)
    seen = Counter()
    for seed in range(25):
        game = hupai.Game("guangdong", seed=seed, dealer=seed % 4)
        rules, table = game.rules, game.table
        bots = [RandomBot(seed * 4 + seat) for seat in range(4)]
        while not game.over:
            for _ in range(3):
                tile = rng.choice(held_kinds(table.hands[rng.randrange(4)]) or [0]) if rng.random() < 0.7 \
                    else rng.randrange(NUM_KINDS)
                discarder = rng.randrange(4)
                saved_ready = bytes(table.ready_bytes)
                hands_before = [bytes(hand) for hand in table.hands]
                table.forget_ready()
                try:
                    got = standard_options(rules, table, tile, discarder)
                    filled = list(table.ready)
                finally:
                    table.ready_bytes[:] = saved_ready
                expected = old_claim_options(rules, table, tile, discarder)
                info = (seed, [list(hand) for hand in table.hands], [len(m) for m in table.melds], tile, discarder)
                assert list(got.items()) == list(expected.items()), info
                assert [bytes(hand) for hand in table.hands] == hands_before, info
                for seat in range(4):
                    if seat != discarder:
                        assert filled[seat] == ref_ready(list(table.hands[seat]), len(table.melds[seat]),
                                                         int(rules.win_forms)), info
                    else:
                        assert filled[seat] is None, info
                seen.update(action.kind for options in got.values() for action in options)
            for seat in game.current.seats:
                game.apply(bots[seat].act(game.observation(seat)))
    assert all(seen[kind] >= 20 for kind in ("win", "kong", "pung", "chow")), seen


# ------------------------------------------------------------------------------------------------ turn_scan


def random_meld(rng, kind=None):
    shape = rng.random()
    if kind is not None or shape < 0.5:
        kind = rng.randrange(NUM_KINDS) if kind is None else kind
        return Meld("pung", (kind,) * 3, claimed_from=rng.randrange(4))
    if shape < 0.8:
        low = 9 * rng.randrange(3) + rng.randrange(7)
        return Meld("chow", (low, low + 1, low + 2), claimed_from=rng.randrange(4))
    kind = rng.randrange(NUM_KINDS)
    return Meld("kong", (kind,) * 4, concealed=rng.random() < 0.5)


KIND_ITEMS = tuple(f"k{k}" for k in range(NUM_KINDS))


def test_turn_scan_matches_the_reference_on_random_hands():
    """Bit 1: a tile was drawn and the hand is complete; bit 2: four of a kind held, or a held kind of an
    exposed pung."""
    rng = random.Random(99)
    seen = Counter()
    for case in range(6000):
        m = rng.choice([0, 0, 1, 2, 3, 4])
        forms = rng.choice(FORMS)
        shape = rng.random()
        if shape < 0.5:
            counts = complete_hand(rng, m, forms)
        elif shape < 0.85:
            counts = random_hand(rng, 14 - 3 * m)
        else:
            counts = random_hand(rng, rng.choice([13 - 3 * m, rng.randrange(15)]))
        if rng.random() < 0.15:  # four of a kind (the size may go wrong: then it is no win)
            counts[rng.choice(held_kinds(counts) or [5])] = 4
        melds = [random_meld(rng) for _ in range(m)]
        if melds and rng.random() < 0.4:  # a pung of a held kind
            melds[rng.randrange(m)] = random_meld(rng, rng.choice(held_kinds(counts) or [0]))
        drawn = -1 if rng.random() < 0.2 else rng.choice(held_kinds(counts) or [0])
        hand = bytearray(counts)
        expected = ref_turn_scan(counts, melds, drawn, forms)
        assert tscan(hand, melds, drawn, forms) == expected, (case, counts, melds, drawn, forms)
        # plain_turn, the engine's fused call: the held kinds' actions when the turn is only discards, else None
        plain = _core.plain_turn(hand, melds, pung_kinds(melds), drawn, forms, KIND_ITEMS)
        assert plain == (None if expected else tuple(f"k{k}" for k in held_kinds(counts))), case
        assert list(hand) == counts
        seen.update(bit for bit in (1, 2) if expected & bit)
        seen["both"] += expected == 3
        seen["none"] += expected == 0
    assert all(seen[key] >= 100 for key in (1, 2, "both", "none")), seen


def test_turn_scan_examples():
    complete = bytearray(hupai.tiles.to_counts("123m456p789s11122z"))
    assert tscan(complete, [], 27, 1) == 1
    assert tscan(complete, [], -1, 1) == 0  # no tile drawn: no win asked
    assert tscan(complete, [], 27, int(hupai.Forms.SEVEN_PAIRS)) == 0
    quads = bytearray(hupai.tiles.to_counts("1111m456p789s1122z"))
    assert tscan(quads, [], 0, 1) == 2
    pung = Meld("pung", (27, 27, 27), claimed_from=1)
    small = bytearray(hupai.tiles.to_counts("123m456p789s12z"))  # 11 tiles: one meld set aside
    assert tscan(small, [pung], 28, 1) == 2  # 1z held with a pung of 1z; 123m456p789s12z not complete
    assert tscan(small, [Meld("pung", (30, 30, 30), claimed_from=1)], 28, 1) == 0
    assert tscan(small, [Meld("kong", (27,) * 4, claimed_from=1)], 28, 1) == 0  # a kong is not a pung
    assert tscan(small, [Meld("chow", (0, 1, 2), claimed_from=1)], 28, 1) == 0
    won = bytearray(hupai.tiles.to_counts("123m456p789s22z"))
    assert tscan(won, [pung], 28, 1) == 1
    won[27] = 1
    assert tscan(won, [pung], -1, 1) == 2
    # Only the meld count and the pung mask reach the core: a pung's kind is a bit, a meld list only its length.
    assert _core.turn_scan(small, 1, 1 << 27, -1, 1) == 2
    assert _core.turn_scan(small, 1, 1 << 30, -1, 1) == 0
    assert _core.turn_scan(small, (None,), 0, -1, 1) == 0


# ------------------------------------------------------------------- Game.apply finds the chosen legal action


def test_apply_uses_the_engines_own_legal_action():
    """The action applied and logged is the engine's stored object: the same one given, or an equal copy's
    stored original (a float seat or tile never reaches the log)."""
    for seed in range(3):
        game = hupai.Game("guangdong", seed=seed)
        bots = [RandomBot(seed * 4 + seat) for seat in range(4)]
        step = 0
        while not game.over:
            seat = game.current.seats[0]
            chosen = bots[seat].act(game.observation(seat))
            stored = next(a for a in game.legal_actions(seat) if a == chosen)
            game.apply(chosen if step % 2 else Action(*chosen))
            assert game.actions[-1] is stored
            step += 1


def test_held_actions_are_the_given_objects_in_kind_order():
    rng = random.Random(5)
    for _ in range(500):
        seat = rng.randrange(4)
        counts = random_hand(rng, rng.randrange(15))
        got = _core.held_actions(bytearray(counts), ACTIONS.discard[seat])
        expected = tuple(ACTIONS.discard[seat][kind] for kind in range(NUM_KINDS) if counts[kind] > 0)
        assert type(got) is tuple and got == expected
        assert all(a is b for a, b in zip(got, expected, strict=True))
    markers = tuple(object() for _ in range(NUM_KINDS))  # any objects: returned as they are, never read
    got = _core.held_actions(bytes(hupai.tiles.to_counts("1m9m7z7z7z")), markers)
    assert len(got) == 3 and got[0] is markers[0] and got[1] is markers[8] and got[2] is markers[33]
    assert _core.held_actions(bytearray(NUM_KINDS), ACTIONS.discard[0]) == ()


BAD_HELD_ARGS = [
    (bytearray(NUM_KINDS),),
    (bytearray(NUM_KINDS), ACTIONS.discard[0], 0),
    ([0] * NUM_KINDS, ACTIONS.discard[0]),
    (bytearray(33), ACTIONS.discard[0]),
    (bytearray(35), ACTIONS.discard[0]),
    (bytearray([5] + [0] * 33), ACTIONS.discard[0]),
    (bytearray(NUM_KINDS), list(ACTIONS.discard[0])),
    (bytearray(NUM_KINDS), ACTIONS.discard[0][:33]),
    (bytearray(NUM_KINDS), ACTIONS.discard[0] + (None,)),
]


@pytest.mark.parametrize("args", BAD_HELD_ARGS)
def test_held_actions_rejects_malformed_input(args):
    with pytest.raises((TypeError, ValueError)):
        _core.held_actions(*args)


def test_turn_discards_are_the_prebuilt_actions_in_kind_order():
    for seed in range(3):
        game = hupai.Game("guangdong", seed=seed)
        seat = game.current.seats[0]
        counts = game.table.hands[seat]
        discards = [a for a in game.legal_actions(seat) if a.kind == "discard"]
        assert discards == [ACTIONS.discard[seat][kind] for kind in range(NUM_KINDS) if counts[kind]]
        assert all(a is ACTIONS.discard[seat][a.tile] for a in discards)


# ----------------------------------------------------------------------------------------- malformed input

GOOD_HANDS = [bytearray(hupai.tiles.to_counts("123m456p789s1122z")) for _ in range(4)]


def claim_args(**changes):
    args = {"hands": [bytearray(hand) for hand in GOOD_HANDS], "melds": [[], [], [], []], "ready": [None] * 4,
            "tile": 27, "discarder": 0, "forms": 1, "chow_seats": 2, "flags": 7}
    args.update(changes)
    return list(args.values())


def with_count(count):
    hand = bytearray(GOOD_HANDS[0])
    hand[3] = count
    return hand


BAD_CLAIM_ARGS = [
    claim_args(hands=[bytearray(GOOD_HANDS[0])], melds=[[]], ready=[None]),  # one seat
    claim_args(hands=[bytearray(GOOD_HANDS[0])] * 5, melds=[[]] * 5, ready=[None] * 5),  # five seats
    claim_args(melds=[[], [], []]),
    claim_args(ready=[None] * 3),
    claim_args(melds=[[], None, [], []]),
    claim_args(melds=[[], 5, [], []]),
    claim_args(melds=[[], [0] * 5, [], []]),
    claim_args(melds=[[], 1.0, [], []]),
    claim_args(melds=[b"", bytes(5), b"", b""]),  # a meld record cut short
    claim_args(melds=[b"", bytes(30), b"", b""]),  # five meld records
    claim_args(melds=[b"", bytearray(6), b"", b""]),  # records in a buffer, not the table's bytes
    claim_args(ready=[None, 2, None, None]),
    claim_args(ready=[None, "yes", None, None]),
    claim_args(hands=[list(GOOD_HANDS[0])] + GOOD_HANDS[1:]),
    claim_args(hands=[bytearray(33)] + GOOD_HANDS[1:]),
    claim_args(hands=[bytearray(35)] + GOOD_HANDS[1:]),
    claim_args(hands=[with_count(5)] + GOOD_HANDS[1:]),
    claim_args(hands=GOOD_HANDS[:3] + [with_count(255)]),
    claim_args(hands=None),
    claim_args(hands="abcd"),
    claim_args(tile=34),
    claim_args(tile=-1),
    claim_args(tile=2**70),
    claim_args(tile=27.0),
    claim_args(tile=True),
    claim_args(tile="1z"),
    claim_args(discarder=4),
    claim_args(discarder=-1),
    claim_args(hands=GOOD_HANDS[:3], melds=[[]] * 3, ready=[None] * 3, discarder=3),
    claim_args(discarder=None),
    claim_args(forms=0),
    claim_args(forms=64),
    claim_args(chow_seats=16),
    claim_args(chow_seats=-1),
    claim_args(flags=8),
    claim_args(flags=-1),
    claim_args()[:7],
    claim_args() + [0],
    [],
]


@pytest.mark.parametrize("args", BAD_CLAIM_ARGS)
def test_claim_scan_rejects_malformed_input(args):
    with pytest.raises((TypeError, ValueError)):
        _core.claim_scan(*args)


BAD_CACHES = [
    bytearray([255]) * 3,                # a cache of another table size
    bytearray([255]) * 5,
    bytearray([255, 2, 255, 255]),       # a byte that is no flag (0, 1, 255)
    bytearray([0, 1, 254, 255]),
]


_LATER = [{}, {"tile": 34}, {"flags": 8}, {"hands": [bytearray(33)] + GOOD_HANDS[1:]}]


@pytest.mark.parametrize(("cache", "later"), [
    *((cache, later) for cache in BAD_CACHES for later in _LATER),
    *((bytearray([255, 0, 1, 255]), later) for later in _LATER[1:]),  # a good cache, a bad later argument
])
def test_claim_scan_refuses_a_bad_cache_and_writes_nothing(cache, later):
    """The engine's cache (a bytearray, written in place) is checked with every other argument before a byte is
    written; a good cache with a bad later argument is left as it was too."""
    ready = bytearray(cache)
    with pytest.raises((TypeError, ValueError)):
        _core.claim_scan(*claim_args(ready=ready, **later))
    assert ready == cache


def test_claim_scan_refuses_a_cache_of_another_type_and_writes_nothing():
    """Only a bytearray is the engine's cache, written in place: bytes or a memoryview of the cache's bytes are
    read as a sequence of flags (-1, 0, 1), so a 255 in them is refused, and the memory under them is not written."""
    under = bytearray([255]) * 4
    for cache in (bytes(under), memoryview(under), list(under)):
        with pytest.raises(ValueError, match="out of range"):
            _core.claim_scan(*claim_args(ready=cache))
    assert under == bytearray([255]) * 4


def test_claim_scan_writes_the_cache_in_place():
    """The engine's cache: a bytearray of a byte per seat (255 not known), the flags the scan learns written into
    it, nothing returned for them; the same answers as with a list of flags."""
    flags = [None] * 4
    want = _core.claim_scan(*claim_args(ready=flags))
    cache = bytearray([255]) * 4
    got = _core.claim_scan(*claim_args(ready=cache))
    assert got == (want[0], None)
    learned = want[1] if want[1] is not None else flags
    assert list(cache) == [255 if flag is None else int(flag) for flag in learned]
    known = bytearray(cache)
    assert _core.claim_scan(*claim_args(ready=known)) == got and known == cache  # known flags stay as they were


def test_claim_scan_reads_the_cache_after_a_hostile_sequence_runs():
    """A hands sequence whose item access resizes the cache cannot make the scan write past it: the cache's size
    is checked once nothing else can run."""
    cache = bytearray([255]) * 4

    class Shrinking(list):
        def __getitem__(self, index):
            cache[:] = b""
            return list.__getitem__(self, index)

    with pytest.raises(ValueError):
        _core.claim_scan(Shrinking(claim_args()[0]), *claim_args(ready=cache)[1:])
    assert cache == b""


def test_claim_scan_accepts_the_edges():
    """Plain data in any sequence: tuples, bytes, memoryviews, numpy arrays, numpy ints, counts as ints."""
    assert _core.claim_scan(*claim_args(tile=33, discarder=3, forms=63, chow_seats=15, flags=0)) == (0, None)
    two = claim_args(hands=GOOD_HANDS[:2], melds=[[], []], ready=[None, None], discarder=1)
    assert _core.claim_scan(*two) == (1 | 2, (True, None))  # seat 0 wins on and pungs 1z; found ready
    np = pytest.importorskip("numpy")
    plain = (tuple(bytes(hand) for hand in GOOD_HANDS[:2]), (0, 0), (-1, -1), np.int64(27), np.int8(1), 1, 0, 7)
    assert _core.claim_scan(*plain) == (1 | 2, (True, None))  # -1 is unknown, as None
    views = [memoryview(GOOD_HANDS[0]), np.frombuffer(bytes(GOOD_HANDS[1]), dtype=np.uint8)]
    assert _core.claim_scan(views, [(), ()], [False, 1], 27, 1, 1, 0, 7) == (2, None)  # known not ready: no win


BAD_TURN_ARGS = [
    (bytearray(GOOD_HANDS[0]), 0, 0, 0),
    (bytearray(GOOD_HANDS[0]), 0, 0, 0, 1, 0),
    (),
    (list(GOOD_HANDS[0]), 0, 0, 0, 1),
    (bytearray(33), 0, 0, 0, 1),
    (bytearray(35), 0, 0, 0, 1),
    (bytearray(GOOD_HANDS[0]), None, 0, 0, 1),
    (bytearray(GOOD_HANDS[0]), 5, 0, 0, 1),
    (bytearray(GOOD_HANDS[0]), [None] * 5, 0, 0, 1),
    (bytearray(GOOD_HANDS[0]), 0, -1, 0, 1),
    (bytearray(GOOD_HANDS[0]), 0, 1 << 34, 0, 1),
    (bytearray(GOOD_HANDS[0]), 0, 0, None, 1),
    (bytearray(GOOD_HANDS[0]), 0, 0, 0.0, 1),
    (bytearray(GOOD_HANDS[0]), 0, 0, 0, "1"),
    (with_count(5), 0, 0, 0, 1),
    (with_count(200), 0, 0, -1, 1),
]


@pytest.mark.parametrize("args", BAD_TURN_ARGS)
def test_turn_scan_rejects_malformed_input(args):
    with pytest.raises((TypeError, ValueError)):
        _core.turn_scan(*args)


def test_turn_scan_odd_input():
    """Out-of-range ints raise ValueError; a bytes hand or a tuple of melds is plain data like the engine's own."""
    hand = bytearray(hupai.tiles.to_counts("123m456p789s11122z"))
    for drawn, forms in ((0, 0), (0, -1), (0, 1 << 20), (2**80, 1), (34, 1), (-2, 1)):
        with pytest.raises(ValueError):
            _core.turn_scan(hand, 0, 0, drawn, forms)
    assert _core.turn_scan(bytes(hand), (), 0, 0, 1) == 1


def test_the_scans_read_a_seats_meld_count_from_its_meld_records():
    """The engine passes each seat's meld records (Table.meld_records: bytes, 6 a meld); their size over the
    width is the count, as the length of a list of Melds was."""
    pung = Meld("pung", (27, 27, 27), claimed_from=1, claimed_tile=27)
    small = bytearray(hupai.tiles.to_counts("123m456p789s12z"))  # 11 tiles: one meld set aside
    won = bytearray(hupai.tiles.to_counts("123m456p789s22z"))
    for records in (pung.record, bytes(6)):  # only the size is read
        assert _core.turn_scan(small, records, 1 << 27, 28, 1) == _core.turn_scan(small, [pung], 1 << 27, 28, 1) == 2
        assert _core.turn_scan(won, records, 0, 28, 1) == _core.turn_scan(won, 1, 0, 28, 1) == 1
    assert _core.plain_turn(won, pung.record, 0, 28, 1, ACTIONS.discard[0]) is None  # complete: not plain
    assert _core.claim_scan(*claim_args(melds=[b"", b"", b"", b""])) == _core.claim_scan(*claim_args())
    for bad in (bytes(5), bytes(7), bytes(30), bytearray(6)):
        with pytest.raises(ValueError):
            _core.turn_scan(small, bad, 0, 28, 1)
        with pytest.raises(ValueError):
            _core.plain_turn(small, bad, 0, 28, 1, ACTIONS.discard[0])
