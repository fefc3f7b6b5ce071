"""The bulk checks of a format-2 restore (:mod:`hupai.game.state.compact`) and the copies a snapshot makes
(:func:`hupai.game.state.table.copy_json`) give what the plain loops give."""

from __future__ import annotations

import random

from hupai.game.state import compact
from hupai.game.state.table import copy_json


def _loop_conserved(copies: bytes, placed: bytes, hands: bytes, n: int) -> bool:
    return all(placed[k] + sum(hands[34 * s + k] for s in range(n)) == copies[k] for k in range(34))


def test_conservation_by_big_int_digits_never_carries_into_a_false_yes() -> None:
    copies = bytes([4] * 34)
    # 260 of kind 0 (a pile of 128 and four hands of 33) is 4 + a carry of 256 into kind 1, one short there:
    # added as digits without the guard, the sums would come out equal.
    placed = bytes([128, 3] + [4] * 32)
    hands = bytes(([33] + [0] * 33) * 4)
    assert int.from_bytes(placed, "little") + 4 * int.from_bytes(hands[:34], "little") == int.from_bytes(
        copies, "little")
    assert not compact._conserved(copies, placed, hands, 4, None, 0)


def test_conservation_agrees_with_the_loop() -> None:
    pick = random.Random(30)
    for _ in range(3000):
        n = pick.choice([2, 3, 4])
        copies = bytes([4] * 34)
        hands = bytearray(34 * n)
        placed = bytearray(copies)
        for _ in range(pick.randint(0, 60)):  # move tiles from the wall into hands
            kind, seat = pick.randrange(34), pick.randrange(n)
            if placed[kind]:
                placed[kind] -= 1
                hands[34 * seat + kind] += 1
        if pick.random() < 0.5:  # then forge a count
            where = pick.randrange(34 * n)
            hands[where] = pick.choice([0, 1, 9, 33, hands[where] + 1])
        if pick.random() < 0.3:
            placed[pick.randrange(34)] = pick.choice([0, 5, 136, 255])
        assert compact._conserved(copies, bytes(placed), bytes(hands), n, None, 0) == _loop_conserved(
            copies, bytes(placed), bytes(hands), n)


def test_copy_json_copies_every_level() -> None:
    extras = {"revealed": [[1, 2], [], [3]], "liangdao": [False, True], "gold": 3, "deep": [{"a": [1]}, [[2]]]}
    copied = copy_json(extras)
    assert copied == extras
    assert copied["revealed"] is not extras["revealed"]
    assert all(a is not b for a, b in zip(copied["revealed"], extras["revealed"], strict=True))
    assert copied["deep"][0]["a"] is not extras["deep"][0]["a"] and copied["deep"][1][0] is not extras["deep"][1][0]
    copied["revealed"][0].append(9)
    assert extras["revealed"][0] == [1, 2]
