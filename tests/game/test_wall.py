"""The wall: our own seeded shuffle, per-hand seeds, stacked walls (determinism, DESIGN §6)."""

import random
from collections import Counter

import numpy as np
import pytest
from hupai import _core
from hupai.errors import InvalidHand
from hupai.game.state.wall import Wall, hand_seed, shuffle, splitmix64, stacked_wall
from hupai.tiles import parse

TILES = [kind for kind in range(34) for _ in range(4)]


def test_splitmix64_reference_values():
    # The first outputs of splitmix64 seeded with 0 (the reference implementation's stream).
    assert splitmix64(0) == 0xE220A8397B1DCDAF
    assert splitmix64(0x9E3779B97F4A7C15) == 0x6E789E6AA1B965F4


def test_shuffle_is_a_permutation_and_deterministic():
    first = shuffle(TILES, 12345)
    assert Counter(first) == Counter(TILES)
    assert shuffle(TILES, 12345) == first
    assert shuffle(TILES, 12346) != first
    assert TILES == sorted(TILES)  # the input is not touched


def test_shuffle_is_pinned():
    # A regression pin: a changed shuffle would silently break every stored log.
    assert list(shuffle(TILES, 0)[:12]) == [28, 20, 12, 5, 31, 2, 2, 5, 21, 23, 33, 28]


def numpy_shuffle(tiles: list[int], seed: int) -> list[int]:
    """The documented algorithm written with numpy: the reference the core's shuffle must equal."""
    out = list(tiles)
    n = len(out)
    if n < 2:
        return out
    raw = np.random.PCG64(seed).random_raw(n - 1).tolist()
    for i, value in zip(range(n - 1, 0, -1), raw, strict=True):
        j = (value * (i + 1)) >> 64
        out[i], out[j] = out[j], out[i]
    return out


# Seeds of every size SeedSequence reads differently: one word, two, exactly 2**64, and long ones.
SEEDS = [0, 1, 2, 12345, 2**32 - 1, 2**32, 2**63 + 5, 2**64 - 1, 2**64, 2**128 + 3, 2**200 + 17, 10**40]


@pytest.mark.parametrize("seed", SEEDS)
def test_core_generator_is_numpys_pcg64(seed):
    assert _core.pcg64_raw(seed, 200) == np.random.PCG64(seed).random_raw(200).tolist()


def test_core_shuffle_equals_the_numpy_reference():
    rng = random.Random(3)
    seeds = list(range(300)) + SEEDS + [rng.getrandbits(bits) for bits in (31, 40, 64, 65, 130) for _ in range(40)]
    for seed in seeds:
        assert list(shuffle(TILES, seed)) == numpy_shuffle(TILES, seed), seed
    for length in (0, 1, 2, 3, 84, 80):
        assert list(shuffle(list(range(length)), 99)) == numpy_shuffle(list(range(length)), 99)


def test_shuffle_fills_a_bytearray():
    """The wall is a typed buffer: the core shuffle returns a new bytearray (one byte a tile, the same order as
    the reference), refusing a tile that does not fit in a byte before it shuffles anything."""
    tiles = list(TILES)
    out = shuffle(tiles, 5)
    assert type(out) is bytearray and list(out) == numpy_shuffle(TILES, 5) and tiles == TILES
    assert list(shuffle(list(range(20)) * 4, 5)) == numpy_shuffle(list(range(20)) * 4, 5)  # zipai cards
    for bad in ([256], [-1], [0, 300]):
        with pytest.raises(InvalidHand):
            shuffle(bad, 1)


def test_core_shuffle_refuses_a_negative_seed():
    with pytest.raises(ValueError):
        shuffle(TILES, -1)


def test_hand_seeds_differ_per_hand_and_per_match():
    seeds = {hand_seed(7, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert hand_seed(7, 0) != hand_seed(8, 0)
    assert hand_seed(7, 3) == hand_seed(7, 3)


def test_shuffle_is_roughly_uniform():
    # Each position sees each of 4 tiles about equally often.
    n = 4000
    firsts = Counter(shuffle([0, 1, 2, 3], seed)[0] for seed in range(n))
    assert all(abs(count - n / 4) < 150 for count in firsts.values())


def test_wall_draws_from_head_and_tail():
    wall = Wall([1, 2, 3, 4, 5])
    assert wall.draw() == 1 and wall.draw_tail() == 5 and wall.live == 3
    assert type(wall.tiles) is bytearray and wall.to_json() == [[2, 3, 4]]


def test_wall_keeps_a_given_bytearray_and_copies_apart():
    """A bytearray given is the wall's own buffer (the deal's shuffle, not copied again); a copy (a search
    fork) has its own buffer."""
    tiles = bytearray(range(10))
    wall = Wall(tiles, 2, 8)
    assert wall.tiles is tiles and wall.live == 6
    fork = wall.copy()
    assert fork.tiles == tiles and fork.tiles is not tiles and (fork.head, fork.tail) == (2, 8)
    fork.tiles[0] = 9
    fork.draw()
    assert tiles[0] == 0 and wall.head == 2
    with pytest.raises(ValueError):
        Wall([256])


def test_stacked_wall_deals_the_given_hands():
    hands = [parse("123m456p789s11z23s4s"), parse("1112345678999p"), parse("19m19p19s1234567z"),
             parse("22m33m44m55s66s77s8s")]
    wall = stacked_wall(hands, dealer=0, draws=parse("9m"), replacements=parse("5z"))
    assert Counter(wall) == Counter(TILES)
    assert wall[:13] == hands[0][:13] and wall[52] == hands[0][13] and wall[53] == parse("9m")[0]
    assert wall[-1] == parse("5z")[0]
    with pytest.raises(ValueError):
        stacked_wall([parse("1111m"), parse("1m")])


def test_count_kinds_counts_a_range_of_the_wall():
    """``_core.count_kinds`` (the deal's counts): per kind, how many of tiles[start:stop] it holds; bad input
    raises a clear error, never a crash."""
    tiles = shuffle(list(range(34)) * 4, 7)
    for start, stop in [(0, 13), (13, 26), (52, 53), (10, 10), (0, 136)]:
        counted = Counter(tiles[start:stop])
        assert list(_core.count_kinds(tiles, start, stop, 34)) == [counted[k] for k in range(34)]
    assert _core.count_kinds((19, 0, 19), 0, 3, 20) == bytes([1] + [0] * 18 + [2])
    for buffer in (bytes(tiles), bytearray(tiles)):  # read in place, the same counts as the ints give
        assert _core.count_kinds(buffer, 3, 100, 34) == _core.count_kinds(list(tiles), 3, 100, 34)
        for args in [(buffer, 0, 137, 34), (buffer, 5, 4, 34), (buffer, -1, 3, 34)]:
            with pytest.raises(InvalidHand):
                _core.count_kinds(*args)
    for buffer in (bytes([34]), bytearray([19, 20])):
        with pytest.raises(InvalidHand, match="out of range"):
            _core.count_kinds(buffer, 0, len(buffer), 34 if len(buffer) == 1 else 20)
    with pytest.raises(InvalidHand, match="more than 255"):
        _core.count_kinds(bytes(256), 0, 256, 34)  # 256 of one kind
    for args in [(tiles, 0, 137, 34), (tiles, 5, 4, 34), (tiles, -1, 3, 34), ([34], 0, 1, 34), ([1.0], 0, 1, 34),
                 ([True], 0, 1, 34), (tiles, 0, 3, 0)]:
        with pytest.raises(InvalidHand):
            _core.count_kinds(*args)
    with pytest.raises(TypeError):
        _core.count_kinds(5, 0, 1, 34)
