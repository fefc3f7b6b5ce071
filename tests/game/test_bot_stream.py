"""The bots' random stream (``hupai.bots._Stream``): CPython's ``random.Random`` on a state the core reads too
(cpp/mt19937.hpp), so the core can play a bot's plain turns drawing what its Python side would. It must be
``random.Random`` exactly, on every seed and for long streams, and survive reseeding, getstate/setstate, pickling
and copies."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hupai import _core
from hupai.bots import GreedyBot, RandomBot, _restored_stream, _Stream
from hupai.errors import HupaiError

SEEDS = [0, 1, 2, -1, -7, 12345, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 5, -(2**32), 2**63 - 1, 2**64, 2**64 + 3,
         -(2**64) - 11, 2**100 + 17, 3**300, "guangdong", b"\x00\x01", bytearray(b"seed"), True]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_stream_is_random_random(seed: object) -> None:
    stream = _Stream(seed)
    reference = random.Random(seed)  # type: ignore[arg-type]
    assert stream.getstate() == reference.getstate()
    # Past several regenerations of the 624 words (two outputs a float).
    assert [stream.random() for _ in range(1500)] == [reference.random() for _ in range(1500)]
    assert stream.getstate() == reference.getstate()


def test_many_seeds_short_streams() -> None:
    draw = random.Random(20261205)
    for _ in range(300):
        seed = draw.getrandbits(draw.choice((8, 32, 33, 64, 65, 200))) * draw.choice((1, -1))
        stream, reference = _Stream(seed), random.Random(seed)
        assert [stream.random() for _ in range(5)] == [reference.random() for _ in range(5)], seed


def test_reseed_and_states_cross_over() -> None:
    stream, reference = _Stream(3), random.Random(3)
    for _ in range(700):
        stream.random()
        reference.random()
    stream.seed(99)
    reference.seed(99)
    assert stream.random() == reference.random()
    other = random.Random()
    other.setstate(stream.getstate())  # a stream's state read by random.Random, and back
    assert other.random() == stream.random()
    stream.setstate(other.getstate())
    assert stream.random() == other.random()
    with pytest.raises((ValueError, TypeError)):
        stream.setstate((3, (0,) * 624 + (625,), None))  # random.Random's own refusal, the stream unchanged
    assert stream.random() == other.random()


def test_pick_is_int_of_random_times_n() -> None:
    stream, reference = _Stream(11), random.Random(11)
    for n in [1, 2, 3, 7, 13, 34, 1000, 2**31, 0] * 50:
        assert _core.stream_pick(stream.state, n) == int(reference.random() * n)
    for bad in (-1, 2**31 + 1, 1.0, True, 2**70):
        with pytest.raises(ValueError):
            _core.stream_pick(stream.state, bad)  # type: ignore[arg-type]
    assert stream.random() == reference.random()  # refused picks drew nothing


def test_seed_none_draws_from_the_os() -> None:
    assert _Stream(None).random() != _Stream(None).random()


@pytest.mark.parametrize("cls", [RandomBot, GreedyBot])
def test_bots_pickle_copy_and_reseed(cls: type) -> None:
    bot = cls(5)
    for _ in range(10):
        bot._rng.random()
    copies = [pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot), copy.copy(bot)]
    expected = [bot._rng.random() for _ in range(5)]
    for other in copies[:2]:
        assert [other._rng.random() for _ in range(5)] == expected
    # A copy draws from its own buffer: the original moved on, the deep copies did not share it.
    assert copies[0]._rng.state is not bot._rng.state
    bot.reseed(8)
    assert bot._rng.random() == random.Random(8).random()


def test_restored_stream_refuses_a_bad_state() -> None:
    good = bytes(_Stream(1).state)
    assert _restored_stream(good).random() == random.Random(1).random()
    for bad in (good[:-1], bytearray(good), good[:-4] + (625).to_bytes(4, "little"), "x"):
        with pytest.raises(HupaiError):
            _restored_stream(bad)  # type: ignore[arg-type]


def test_core_stream_functions_check_their_arguments() -> None:
    state = bytearray(2500)
    for key in (b"", b"\x01\x02\x03", "ab", bytearray(4)):
        with pytest.raises(ValueError):
            _core.stream_seed(state, key)  # type: ignore[arg-type]
    assert state == bytearray(2500)
    with pytest.raises(ValueError):
        _core.stream_seed(bytearray(2499), b"\x00" * 4)
    for bad in (bytearray(2499), bytes(2500), bytearray(2496) + (625).to_bytes(4, "little")):
        before = bytes(bad)
        with pytest.raises(ValueError):
            _core.stream_random(bad)  # type: ignore[arg-type]
        assert bytes(bad) == before
    with pytest.raises(TypeError):
        _core.stream_random()  # type: ignore[call-arg]
