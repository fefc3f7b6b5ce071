"""check_free_json's quick path (the shapes rules' extras and options use, lists of lists included) accepts
exactly what the full walk accepts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hupai import InvalidState
from hupai.game.state import validate

BIG = 1 << 64


def _walked(value: Any) -> bool:
    """The full walk's answer (the quick path turned off)."""
    usual = validate._usual
    validate._usual = lambda *args: False  # type: ignore[assignment]
    try:
        validate.check_free_json(value, "x")
        return True
    except InvalidState:
        return False
    finally:
        validate._usual = usual  # type: ignore[assignment]


def _checked(value: Any) -> bool:
    try:
        validate.check_free_json(value, "x")
        return True
    except InvalidState:
        return False


def _quick(value: Any) -> bool:
    return validate._usual(value, validate.MAX_DEPTH, validate.MAX_NODES)


def test_the_usual_shapes_take_the_quick_path() -> None:
    assert _quick({"liangdao": [False, True, False], "revealed": [[1, 2, 3], [], [33]], "chain": [-1, 0, 0]})
    assert _quick({"gold": 3, "you": [0, 1, 0, 0], "last_kong": [], "name": "x", "none": None, "f": 1.5})
    assert _quick({"mixed": [1, "a", None, [True, 2.5]]})
    assert _quick({"deep": [[[[{"a": {"b": [1, {"c": [BIG - 1, -(1 << 63)]}]}}]]]], "wide": [0] * 1000})


@pytest.mark.parametrize("value", [
    {"a": BIG}, {"a": -(1 << 63) - 1}, {1: 2}, {"a": (1,)}, {"a": {"b": [object()]}}, {"a": b"x"},
    {"a": [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}, {"a": [0] * validate.MAX_NODES}, {"a": [set()]},
])
def test_the_quick_path_refuses_what_the_walk_refuses(value: Any) -> None:
    assert not _quick(value) and not _walked(value)


def test_the_quick_path_takes_only_exact_json_types() -> None:
    class Text(str):
        pass

    class Number(int):
        pass

    class Mapping(dict):  # type: ignore[type-arg]
        pass

    for forged in ({"a": Text("x")}, {Text("a"): 1}, {"a": Number(1)}, {"a": [Mapping()]}, {"a": 1.5j}):
        assert not _quick(forged) and not _walked(forged)


@pytest.mark.parametrize("value", [
    {"a": [[1, BIG]]}, {"a": [[1], -BIG]}, {"a": [1, BIG]}, {"a": BIG}, {"a": [[{"b": 1}]]}, {"a": [[[1]]]},
    {"a": [[1] * 65]}, {1: [[]]}, {"a": [(1, 2)]}, {"a": [[(1,)]]}, {"a": {1: 2}}, {"a": [[object()]]},
    {f"k{i}": [[0] * 64 for _ in range(64)] for i in range(3)},  # more than MAX_NODES values
    {"a": [[True, -(1 << 63), BIG - 1]]}, {"a": [[True, -(1 << 63) - 1]]}, {"a": [[None, "s", BIG]]},
])
def test_hostile_or_unusual_values_get_the_full_walks_answer(value: Any) -> None:
    assert _checked(value) == _walked(value)


def test_random_shapes_get_the_full_walks_answer() -> None:
    pick = random.Random(30)
    scalars: list[Any] = [0, -1, BIG, BIG - 1, -(1 << 63), -(1 << 63) - 1, True, None, "s", 1.5, (1,), b"x", {}]

    def value(depth: int) -> Any:
        roll = pick.random()
        if depth > 3 or roll < 0.5:
            return pick.choice(scalars)
        if roll < 0.9:
            return [value(depth + 1) for _ in range(pick.choice([0, 1, 3, 64, 65]))]
        return {pick.choice(["a", "b", 1]): value(depth + 1) for _ in range(pick.randint(0, 3))}

    for _ in range(800):
        data = {f"k{i}": value(1) for i in range(pick.randint(0, 4))}
        assert _checked(data) == _walked(data), data
