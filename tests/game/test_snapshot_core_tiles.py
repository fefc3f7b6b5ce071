"""``_core.compact_tiles``: a format-2 snapshot's hand, discard and missed strings decoded and checked in one core
pass (tile conservation, pile lengths, hand sizes), None on anything it does not accept, so that the Python
checks of :mod:`hupai.game.state.compact` name the field with the same messages as before."""

from __future__ import annotations

from typing import Any

import hupai
import pytest
from hupai import InvalidState
from hupai._core import compact_tiles
from hupai.bots import RandomBot
from hupai.game import Game
from hupai.game.state import compact
from hupai.game.state.validate import _dealt_wall


def _snapshot(moves: int = 5, seed: int = 1) -> dict[str, Any]:
    game = Game("guangdong", seed=seed, claim_window="eligible")
    bots = [RandomBot(seed * 10 + i) for i in range(4)]
    for _ in range(moves):
        seat = game.seats_to_act[0]
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    assert game.table.phase == "turn" and not any(game.table.melds)
    return game.snapshot()


def _args(snap: dict[str, Any], **change: Any) -> dict[str, Any]:
    """compact_tiles' arguments for a snapshot without melds, as table_from_compact passes them."""
    rules = hupai.rules.get("guangdong")
    t = snap["table"]
    state = t["state"]
    made = state[8 + 4:8 + 8]
    low, high = compact._sizes(4, rules.hand_size, t["phase"], state[0])
    args = {"hands": t["hands"], "discards": t["discards"], "missed": t["missed"],
            "wall": bytes(_dealt_wall(rules, snap["setup"])), "head": t["wall"][0], "tail": t["wall"][1],
            "extra": b"", "copies": compact._copies(rules, []), "made": bytes(made), "claimed": bytes(4),
            "melds": bytes(4), "low": low, "high": high}
    args.update(change)
    return args


def _call(args: dict[str, Any]) -> Any:
    return compact_tiles(*args.values())


def test_a_real_table_decodes_as_the_python_check_does() -> None:
    snap = _snapshot()
    found = _call(_args(snap))
    assert found is not None
    hands, piles, missed = found
    table = Game.from_snapshot(snap).table
    assert list(map(bytearray, hands)) == table.hands
    assert [bytes(pile) for pile in piles] == table.discards
    assert missed == (b"",) * 4
    t = snap["table"]
    assert _call(_args(snap, missed=["", "2b", "", "0x"]))[2] == (b"", bytes([2, 11]), b"", bytes([0, 33]))
    assert _call(_args(snap, hands=t["hands"][1:] + t["hands"][:1], low=bytes(4), high=bytes([20] * 4))) is not None


@pytest.mark.parametrize("bad", ["y", "Z", "-", " ", "é", "\x00", "中"])
def test_a_character_that_is_no_tile_is_refused(bad: str) -> None:
    snap = _snapshot()
    t = snap["table"]
    hand = t["hands"][1]
    assert _call(_args(snap, hands=[*t["hands"][:1], bad + hand[1:], *t["hands"][2:]])) is None
    pile = t["discards"][0]
    assert _call(_args(snap, discards=[bad + pile[1:], *t["discards"][1:]])) is None
    assert _call(_args(snap, missed=["", bad, "", ""])) is None


def test_strings_of_another_type_or_length_are_refused() -> None:
    snap = _snapshot()
    t = snap["table"]

    class Text(str):
        pass

    for hands in ([Text(t["hands"][0]), *t["hands"][1:]], [t["hands"][0] + "0", *t["hands"][1:]],
                  [t["hands"][0][:-1], *t["hands"][1:]], t["hands"][:3], [*t["hands"], "0" * 34],
                  tuple(t["hands"]), [t["hands"][0].encode(), *t["hands"][1:]]):
        assert _call(_args(snap, hands=hands)) is None
    piles = t["discards"]
    for discards in ([piles[0] + "0", *piles[1:]], [piles[0][:-1], *piles[1:]], [*piles[:3], piles[3] * 300]):
        assert _call(_args(snap, discards=discards)) is None
    for missed in (["", "", "", "0123456789abcdefghijklmnopqrstuvwx0"], ["", "10", "", ""], ["", "11", "", ""],
                   ["", "", ""], [None, "", "", ""]):
        assert _call(_args(snap, missed=missed)) is None


def test_conservation_is_counted_per_kind_without_a_carry() -> None:
    snap = _snapshot()
    args = _args(snap)
    assert _call(args) is not None
    copies = bytearray(args["copies"])
    copies[5] -= 1  # one tile missing
    assert _call({**args, "copies": bytes(copies)}) is None
    # 256 more of kind 0 and one fewer of kind 1: as the digits of one big int, the sums would come out equal.
    wall = args["wall"]
    live = wall[args["head"]:args["tail"]]
    one = live.index(1)
    carried = live[:one] + live[one + 1:] + bytes(256)
    forged = {**args, "wall": carried, "head": 0, "tail": len(carried)}
    assert _call(forged) is None
    assert _call({**args, "extra": bytes([0])}) is None
    assert _call({**args, "extra": bytes([34])}) is None


def test_hand_sizes_count_three_tiles_a_meld() -> None:
    snap = _snapshot()
    args = _args(snap)
    low, high = args["low"], args["high"]
    assert _call({**args, "low": bytes(b + 1 for b in low), "high": bytes(b + 1 for b in high)}) is None
    # a meld on seat 1 counts three tiles more than its concealed ones hold
    assert _call({**args, "melds": bytes([0, 1, 0, 0])}) is None
    widened = bytes(b + 3 if s == 1 else b for s, b in enumerate(high))
    assert _call({**args, "melds": bytes([0, 1, 0, 0]), "high": widened}) is not None


def test_piles_hold_what_was_discarded_less_what_was_claimed() -> None:
    snap = _snapshot()
    args = _args(snap)
    made = args["made"]
    assert _call({**args, "claimed": bytes([1, 0, 0, 0])}) is None
    assert _call({**args, "made": bytes([made[0] + 1, *made[1:]]), "claimed": bytes([1, 0, 0, 0])}) is not None
    assert _call({**args, "claimed": bytes([made[0] + 1, 0, 0, 0])}) is None


def test_the_callers_own_arguments_raise() -> None:
    args = _args(_snapshot())
    for change in ({"made": list(args["made"])}, {"copies": args["copies"][:33]}, {"low": bytes(3)},
                   {"head": args["tail"] + 1}, {"tail": len(args["wall"]) + 1}, {"head": True},
                   {"made": b"", "claimed": b"", "melds": b"", "low": b"", "high": b""}):
        with pytest.raises(TypeError):
            _call({**args, **change})
    with pytest.raises(TypeError):
        compact_tiles(*list(args.values())[:12])


def test_a_refused_table_is_named_by_the_python_check_as_before() -> None:
    snap = _snapshot()
    t = snap["table"]
    hands = list(t["hands"])
    hands[2] = "y" + hands[2][1:]
    with pytest.raises(InvalidState, match=r"snapshot\.table\.hands\[2\]: .* not a tile"):
        Game.from_snapshot({**snap, "table": {**t, "hands": hands}})
    hands = list(t["hands"])
    hands[2] = hands[2][:33] + str(int(hands[2][33]) + 1)
    with pytest.raises(InvalidState, match=r"snapshot\.table: tile conservation"):
        Game.from_snapshot({**snap, "table": {**t, "hands": hands}})
    moved = [t["discards"][0] + t["discards"][1][-1], t["discards"][1][:-1], *t["discards"][2:]]  # tiles all there
    with pytest.raises(InvalidState, match=r"snapshot\.table\.discards\[0\]: .* tiles, but seat 0 discarded"):
        Game.from_snapshot({**snap, "table": {**t, "discards": moved}})
    # a bad string and a bad field read after it: the string is named, as when the strings were read first
    with pytest.raises(InvalidState, match=r"snapshot\.table\.hands\[2\]"):
        Game.from_snapshot({**snap, "table": {**t, "hands": [*t["hands"][:2], "z" * 34, t["hands"][3]],
                                              "melds": [["zzzzzz"], [], [], []]}})
    with pytest.raises(InvalidState, match=r"snapshot\.table\.missed\[3\]"):
        Game.from_snapshot({**snap, "table": {**t, "missed": ["", "", "", "10"], "extras": []}})
    with pytest.raises(InvalidState, match=r"snapshot\.table\.melds\[0\]\[0\]"):
        Game.from_snapshot({**snap, "table": {**t, "melds": [["zzzzzz"], [], [], []]}})


def test_meld_tokens_are_the_meld_records_bytes() -> None:
    one = hupai.hand.Meld("pung", (5, 5, 5), claimed_from=1, claimed_tile=5)
    other = hupai.hand.Meld("pung", (5, 5, 5), claimed_from=1, claimed_tile=None)
    assert one == other  # equal and of one hash: the claimed tile is left out, the record and token hold it
    assert compact._tokens(one.record) == ["p50015"] and compact._tokens(other.record) == ["p5001-"]
    kong = hupai.hand.Meld("kong", (33,) * 4, concealed=True)
    chow = hupai.hand.Meld("chow", (10, 11, 12), claimed_from=3, claimed_tile=11)
    added = hupai.hand.Meld("kong", (27,) * 4, claimed_from=2, added=True, claimed_tile=27)
    assert compact._tokens(kong.record + chow.record + one.record + added.record) == [
        "kx10--", "ca003b", "p50015", "kr012r"]


def test_ints_within_takes_exact_ints_in_their_bounds_only() -> None:
    from hupai._core import ints_within

    lows, highs = (0, -1, -(1 << 62)), (3, 33, 1 << 62)
    assert ints_within([0, -1, -(1 << 62)], lows, highs) and ints_within([3, 33, 1 << 62], lows, highs)

    class Number(int):
        pass

    for values in ([4, 0, 0], [0, -2, 0], [0, 0, (1 << 62) + 1], [0, 0, 1 << 64], [True, 0, 0], [Number(1), 0, 0],
                   [0, 0], [0, 0, 0, 0], (0, 0, 0), [0, 0, 0.0], [0, None, 0]):
        assert not ints_within(values, lows, highs)
    with pytest.raises(TypeError):
        ints_within([0], (0,), (1, 2))
    with pytest.raises(TypeError):
        ints_within([0], [0], [1])
    with pytest.raises(TypeError):
        ints_within([0], (0,), (1 << 64,))


def test_a_forged_state_entry_is_named() -> None:
    snap = _snapshot()
    t = snap["table"]
    for i, value in ((0, 4), (1, 34), (8, True), (20, 2), (3, "x")):
        state = list(t["state"])
        state[i] = value
        with pytest.raises(InvalidState, match=rf"snapshot\.table\.state\[{i}\]"):
            Game.from_snapshot({**snap, "table": {**t, "state": state}})


def test_json_copy_copies_plain_json_only() -> None:
    from hupai._core import json_copy
    from hupai.game.state.table import copy_json

    value = {"gold": 3, "you": [0, 1, 0, 0], "revealed": [[1, 2], [], [33]], "x": {"y": [None, True, 1.5, "s"]},
             "big": (1 << 64) - 1, "small": -(1 << 63)}
    copied = json_copy(value, 16, 10_000)
    assert copied == value and copied is not value
    assert copied["revealed"] is not value["revealed"] and copied["revealed"][0] is not value["revealed"][0]
    assert copied["x"]["y"] is not value["x"]["y"]
    copied["revealed"][0].append(5)
    assert value["revealed"][0] == [1, 2]

    class Number(int):
        pass

    for forged in ({"a": (1,)}, {"a": 1 << 64}, {1: 2}, {"a": [Number(1)]}, {"a": {"b": set()}},
                   {"a": [[[1]]]}):
        assert json_copy(forged, 2, 10_000) is None
    assert json_copy({"a": [0] * 10}, 16, 10) is None
    # copy_json takes the Python copy for what the core does not (a tuple inside, shared as it is)
    inner = (1, 2)
    assert copy_json({"a": inner})["a"] is inner


def test_forged_extras_are_named_and_a_restored_table_owns_its_extras() -> None:
    game = Game("yunxiao", seed=3, claim_window="eligible")
    snap = game.snapshot()
    t = snap["table"]
    with pytest.raises(InvalidState, match=r"snapshot\.table\.extras\.you\[1\]: .*not a JSON type"):
        Game.from_snapshot({**snap, "table": {**t, "extras": {**t["extras"], "you": [0, (1,), 0, 0]}}})
    restored = Game.from_snapshot(snap)
    assert restored.table.extras == t["extras"]
    t["extras"]["you"][0] = 3
    assert restored.table.extras["you"][0] == 0


@pytest.mark.parametrize("name", ["plain_json", "json_copy"])
@pytest.mark.parametrize("args", [(), ({},), ({}, 16), ({}, 16, 10, 1), ({}, 65, 10), ({}, -1, 10),
                                  ({}, 16, -1), ({}, 16, 1 << 41), ({}, True, 10), ({}, 16.0, 10), ({}, 16, "10")])
def test_the_json_passes_refuse_bad_bounds(name: str, args: tuple[Any, ...]) -> None:
    """plain_json and json_copy take (value, max_depth 0..64, max_nodes 0..2**40) and raise TypeError otherwise."""
    import hupai._core as core

    with pytest.raises(TypeError):
        getattr(core, name)(*args)
