"""The engine's hot-path core helpers (``_core.claim_scan``, ``turn_scan``, ``held_actions``, ``chosen_action``)
against slow, obviously correct Python references; the default ``Rules.claim_options`` (built on claim_scan)
against a plain re-implementation of the old pure-Python default; and malformed input to each helper.

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
from hupai.game.claims import standard_options
from hupai.hand import Meld

NUM_KINDS = 34
WALL = [kind for kind in range(NUM_KINDS) for _ in range(4)]
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
FORMS = [1, 1 | 8, 1 | 2, 1 | 2 | 8, 1 | 4, 2, 8, 63]


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
        got = _core.claim_scan(hands, melds, ready, tile, discarder, forms, chow_seats, flags)
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
    assert _core.claim_scan(hands, melds, ready, tile, 0, 1, 0, 3) == (2 << 8) | (2 << 24)  # pungs only
    assert ready == [None] * 4

    ready = [None] * 4
    assert _core.claim_scan(hands, melds, ready, tile, 0, 1, 0, 4) == (1 << 8) | (1 << 24)
    assert ready == [None, True, False, True]  # the discarder is not looked at

    ready = [None, False, True, None]  # a known False blocks the win; a known True is trusted as it is
    assert _core.claim_scan(hands, melds, ready, tile, 0, 1, 0, 4) == 1 << 24
    assert ready == [None, False, True, True]

    ready = [None] * 4
    bits = _core.claim_scan(hands, melds, ready, 28, 2, 1, 0, 7)  # 2z from seat 2: seats 3, 0, 1 win and pung
    assert bits == (1 | 2) * 0x01000101
    assert ready == [True, True, None, True]


def test_claim_scan_on_a_known_table():
    """5m discarded by seat 0, every other seat allowed to chow."""
    hands = [bytearray(hupai.tiles.to_counts(text)) for text in
             ("123m456p789s1122z", "3467m111p9s22s555z", "46m99s", "2555m")]
    melds = [[], [], ["m"] * 3, ["m"] * 3]
    ready = [None] * 4
    bits = _core.claim_scan(hands, melds, ready, 4, 0, 1, 0b1110, 7)
    assert bits >> 8 & 0xFF == 8 | 16 | 32  # 3-4-5m, 4-5-6m and 5-6-7m; no 5m held
    assert bits >> 16 & 0xFF == 1 | 16  # 456m 99s wins; 4-5-6m
    assert bits >> 24 & 0xFF == 2 | 4  # three 5m: pung and kong; 2555m waits on 2m only; no run around 5m
    assert ready == [None, False, True, True]
    assert _core.claim_scan(hands, melds, [None] * 4, 4, 0, 1, 0b1110, 5) >> 24 & 0xFF == 2  # no kong allowed
    assert _core.claim_scan(hands, melds, [None] * 4, 4, 0, 1, 0, 7) == (1 << 16) | (6 << 24)  # no chowers
    assert _core.claim_scan(hands, melds, [None] * 4, 4, 0, 1, 0b1110, 4) == 1 << 16  # wins only


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
                saved_ready = list(table.ready)
                hands_before = [bytes(hand) for hand in table.hands]
                table.ready[:] = [None] * 4
                try:
                    got = standard_options(rules, table, tile, discarder)
                    filled = list(table.ready)
                finally:
                    table.ready[:] = saved_ready
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
        assert _core.turn_scan(hand, melds, drawn, forms) == expected, (case, counts, melds, drawn, forms)
        assert list(hand) == counts
        seen.update(bit for bit in (1, 2) if expected & bit)
        seen["both"] += expected == 3
        seen["none"] += expected == 0
    assert all(seen[key] >= 100 for key in (1, 2, "both", "none")), seen


def test_turn_scan_examples():
    complete = bytearray(hupai.tiles.to_counts("123m456p789s11122z"))
    assert _core.turn_scan(complete, [], 27, 1) == 1
    assert _core.turn_scan(complete, [], -1, 1) == 0  # no tile drawn: no win asked
    assert _core.turn_scan(complete, [], 27, int(hupai.Forms.SEVEN_PAIRS)) == 0
    quads = bytearray(hupai.tiles.to_counts("1111m456p789s1122z"))
    assert _core.turn_scan(quads, [], 0, 1) == 2
    pung = Meld("pung", (27, 27, 27), claimed_from=1)
    small = bytearray(hupai.tiles.to_counts("123m456p789s12z"))  # 11 tiles: one meld set aside
    assert _core.turn_scan(small, [pung], 28, 1) == 2  # 1z held with a pung of 1z; 123m456p789s12z not complete
    assert _core.turn_scan(small, [Meld("pung", (30, 30, 30), claimed_from=1)], 28, 1) == 0
    assert _core.turn_scan(small, [Meld("kong", (27,) * 4, claimed_from=1)], 28, 1) == 0  # a kong is not a pung
    assert _core.turn_scan(small, [Meld("chow", (0, 1, 2), claimed_from=1)], 28, 1) == 0
    won = bytearray(hupai.tiles.to_counts("123m456p789s22z"))
    assert _core.turn_scan(won, [pung], 28, 1) == 1
    won[27] = 1
    assert _core.turn_scan(won, [pung], -1, 1) == 2
    # Duck-typed melds are read by their type and tiles; a pung's kind out of range is ignored.
    class FakeMeld:
        def __init__(self, type_, tiles):
            self.type, self.tiles = type_, tiles

    assert _core.turn_scan(small, [FakeMeld("pung", (99, 99, 99))], -1, 1) == 0
    assert _core.turn_scan(small, [FakeMeld("pung", ())], -1, 1) == 0
    assert _core.turn_scan(small, [FakeMeld("pung", (27,))], -1, 1) == 2
    assert _core.turn_scan(small, [FakeMeld(1, (27,))], -1, 1) == 0


# -------------------------------------------------------------------------------------------- held_actions


def test_held_actions_are_the_given_objects_in_kind_order():
    rng = random.Random(5)
    for _ in range(500):
        seat = rng.randrange(4)
        counts = random_hand(rng, rng.randrange(15))
        got = _core.held_actions(bytearray(counts), ACTIONS.discard[seat])
        expected = tuple(ACTIONS.discard[seat][kind] for kind in range(NUM_KINDS) if counts[kind] > 0)
        assert type(got) is tuple and got == expected
        assert all(a is b for a, b in zip(got, expected, strict=True))
    markers = tuple(object() for _ in range(NUM_KINDS))  # any objects: returned as they are
    got = _core.held_actions(bytearray(hupai.tiles.to_counts("1m9m7z7z7z")), markers)
    assert len(got) == 3 and got[0] is markers[0] and got[1] is markers[8] and got[2] is markers[33]


def test_held_actions_on_an_empty_hand():
    assert _core.held_actions(bytearray(NUM_KINDS), ACTIONS.discard[0]) == ()


# ------------------------------------------------------------------------------------------- chosen_action


def test_chosen_action_finds_the_stored_legal_action():
    pung = ACTIONS.pung[1][5]
    chow = Action("chow", 1, 5, (4, 5, 6))
    legal = {1: (ACTIONS.pass_[1], pung, chow), 2: (ACTIONS.pass_[2],)}
    assert _core.chosen_action(legal, pung, Action) is pung  # the same object
    copy = Action("pung", 1, 5)
    assert copy is not pung
    assert _core.chosen_action(legal, copy, Action) is pung  # an equal one: the stored object, not the argument
    assert _core.chosen_action(legal, Action("chow", 1, 5, (4, 5, 6)), Action) is chow
    assert _core.chosen_action(legal, ACTIONS.pass_[2], Action) is legal[2][0]


def test_chosen_action_rejects_what_is_not_legal():
    pung = ACTIONS.pung[1][5]
    legal = {1: (ACTIONS.pass_[1], pung), 2: (ACTIONS.pass_[2],)}
    assert _core.chosen_action(legal, ("pung", 1, 5, (), ""), Action) is None  # a plain tuple equal to it

    class SubAction(Action):
        pass

    assert _core.chosen_action(legal, SubAction("pung", 1, 5), Action) is None  # not exactly Action
    assert _core.chosen_action(legal, Action("pung", True, 5), Action) is None  # a bool seat
    assert _core.chosen_action(legal, Action("pung", 1.0, 5), Action) is None  # a float seat
    assert _core.chosen_action(legal, Action("pung", 3, 5), Action) is None  # no legal actions for the seat
    assert _core.chosen_action(legal, Action("pung", 2, 5), Action) is None  # another seat's
    assert _core.chosen_action(legal, Action("pung", 1, 6), Action) is None  # not among them
    assert _core.chosen_action({}, pung, Action) is None
    assert _core.chosen_action({1: ()}, pung, Action) is None


def test_chosen_action_agrees_with_a_linear_search_in_real_games():
    """On the engine's own legal actions: the chosen (or an equal copy of it) comes back as the stored object."""
    for seed in range(5):
        game = hupai.Game("guangdong", seed=seed)
        bots = [RandomBot(seed * 4 + seat) for seat in range(4)]
        while not game.over:
            seats = game.current.seats
            legal = {seat: tuple(game.legal_actions(seat)) for seat in seats}
            for seat in seats:
                for action in legal[seat]:
                    assert _core.chosen_action(legal, action, Action) is action
                    stored = next(a for a in legal[seat] if a == action)
                    assert _core.chosen_action(legal, Action(*action), Action) is stored
            for seat in seats:
                game.apply(bots[seat].act(game.observation(seat)))


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
    claim_args(ready=(None,) * 4),
    claim_args(hands=tuple(GOOD_HANDS)),
    claim_args(melds=[[], (), [], []]),
    claim_args(melds=[[], None, [], []]),
    claim_args(hands=[bytes(GOOD_HANDS[0])] + GOOD_HANDS[1:]),
    claim_args(hands=[list(GOOD_HANDS[0])] + GOOD_HANDS[1:]),
    claim_args(hands=[bytearray(33)] + GOOD_HANDS[1:]),
    claim_args(hands=[bytearray(35)] + GOOD_HANDS[1:]),
    claim_args(hands=[with_count(5)] + GOOD_HANDS[1:]),
    claim_args(hands=GOOD_HANDS[:3] + [with_count(255)]),
    claim_args(tile=34),
    claim_args(tile=-1),
    claim_args(tile=2**70),
    claim_args(tile=27.0),
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
    ready = args[2] if len(args) > 2 and isinstance(args[2], list) else None
    ready_before = list(ready) if ready is not None else None
    with pytest.raises((TypeError, ValueError)):
        _core.claim_scan(*args)
    if ready is not None:
        assert ready == ready_before  # nothing filled in before the input was found bad


def test_claim_scan_accepts_the_edges():
    assert _core.claim_scan(*claim_args(tile=33, discarder=3, forms=63, chow_seats=15, flags=0)) == 0
    two = claim_args(hands=GOOD_HANDS[:2], melds=[[], []], ready=[None, None], discarder=1)
    assert _core.claim_scan(*two) == 1 | 2  # seat 0 wins on and pungs 1z


BAD_TURN_ARGS = [
    (bytearray(GOOD_HANDS[0]), [], 0),
    (bytearray(GOOD_HANDS[0]), [], 0, 1, 0),
    (),
    (bytes(GOOD_HANDS[0]), [], 0, 1),
    (list(GOOD_HANDS[0]), [], 0, 1),
    (bytearray(33), [], 0, 1),
    (bytearray(35), [], 0, 1),
    (bytearray(GOOD_HANDS[0]), (), 0, 1),
    (bytearray(GOOD_HANDS[0]), None, 0, 1),
    (bytearray(GOOD_HANDS[0]), [], None, 1),
    (bytearray(GOOD_HANDS[0]), [], 0.0, 1),
    (bytearray(GOOD_HANDS[0]), [], 0, "1"),
    (with_count(5), [], 0, 1),
    (with_count(200), [], -1, 1),
]


@pytest.mark.parametrize("args", BAD_TURN_ARGS)
def test_turn_scan_rejects_malformed_input(args):
    with pytest.raises((TypeError, ValueError)):
        _core.turn_scan(*args)


def test_turn_scan_odd_input():
    """Input the engine never gives does not crash: too many melds skip the win check; out-of-range ints and
    melds that are not Meld objects raise."""
    hand = bytearray(hupai.tiles.to_counts("123m456p789s11122z"))
    pungs = [Meld("pung", (k,) * 3, claimed_from=1) for k in (30, 31, 32, 33, 29)]
    assert _core.turn_scan(hand, pungs, 0, 1) == 0
    for drawn, forms in ((0, 0), (0, -1), (0, 1 << 20), (2**80, 1), (34, 1), (-2, 1)):
        with pytest.raises(ValueError):
            _core.turn_scan(hand, [], drawn, forms)
    with pytest.raises(TypeError):  # a meld without a type (read only when no four of a kind is held)
        _core.turn_scan(hand, [3], 0, 1)


BAD_HELD_ARGS = [
    (bytearray(NUM_KINDS),),
    (bytearray(NUM_KINDS), ACTIONS.discard[0], 0),
    (bytes(NUM_KINDS), ACTIONS.discard[0]),
    ([0] * NUM_KINDS, ACTIONS.discard[0]),
    (bytearray(33), ACTIONS.discard[0]),
    (bytearray(35), ACTIONS.discard[0]),
    (bytearray(NUM_KINDS), list(ACTIONS.discard[0])),
    (bytearray(NUM_KINDS), ACTIONS.discard[0][:33]),
    (bytearray(NUM_KINDS), ACTIONS.discard[0] + (None,)),
]


@pytest.mark.parametrize("args", BAD_HELD_ARGS)
def test_held_actions_rejects_malformed_input(args):
    with pytest.raises((TypeError, ValueError)):
        _core.held_actions(*args)


class DictSubclass(dict):
    pass


BAD_CHOSEN_ARGS = [
    ({}, ACTIONS.pass_[0]),
    ({}, ACTIONS.pass_[0], Action, 0),
    (),
    ([], ACTIONS.pass_[0], Action),
    (None, ACTIONS.pass_[0], Action),
    (DictSubclass(), ACTIONS.pass_[0], Action),
    ({}, ACTIONS.pass_[0], "Action"),
    ({}, ACTIONS.pass_[0], None),
]


@pytest.mark.parametrize("args", BAD_CHOSEN_ARGS)
def test_chosen_action_rejects_malformed_input(args):
    with pytest.raises((TypeError, ValueError)):
        _core.chosen_action(*args)


def test_chosen_action_odd_but_harmless_input():
    pung = ACTIONS.pung[1][5]
    assert _core.chosen_action({1: [pung]}, pung, Action) is None  # the engine's cache holds tuples only
    assert _core.chosen_action({1: (pung,)}, pung, tuple) is None  # the type must match exactly
    assert _core.chosen_action({1: (pung,)}, Action("pung", 2**80, 5), Action) is None


def test_held_actions_does_not_crash_on_impossible_counts():
    """held_actions does not check counts (the engine's own hands are sound): a count of 5 or 255 is held."""
    hand = bytearray(NUM_KINDS)
    hand[2], hand[30] = 5, 255
    try:
        got = _core.held_actions(hand, ACTIONS.discard[0])
    except (TypeError, ValueError):
        return
    assert got == (ACTIONS.discard[0][2], ACTIONS.discard[0][30])
