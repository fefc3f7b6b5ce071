"""The vector form over many tables: a step refused for one table's action among 64 moves no table, and the
steps that follow are those of a vector environment that was never refused anything (its observations, rewards,
terminations and the final observations of the tables that ended)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="hupai.env needs the env extra (make install)")

from hupai import IllegalAction  # noqa: E402
from hupai.env import vector_env  # noqa: E402

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]
TABLES = 64


def _state(env: Any) -> tuple[Any, ...]:
    """What a step may change at a table: the game, the match's carried fields, the AEC's bookkeeping."""
    aec = env.aec
    return (aec.game.snapshot(), list(aec.match.scores), len(aec.match.results), aec.match.hand_index,
            aec.agent_selection, dict(aec.rewards), dict(aec._cumulative_rewards), dict(aec.terminations))


def _same(mine: tuple[Any, ...], theirs: tuple[Any, ...], step: int) -> None:
    observations, rewards, terminated, truncated, infos = mine
    for key, value in theirs[0].items():
        np.testing.assert_array_equal(observations[key], value, err_msg=f"{key} at step {step}")
    np.testing.assert_array_equal(rewards, theirs[1])
    np.testing.assert_array_equal(terminated, theirs[2])
    assert not truncated.any() and sorted(infos) == sorted(theirs[4])
    for table in np.flatnonzero(terminated):
        for key, value in theirs[4]["final_obs"][table].items():
            np.testing.assert_array_equal(infos["final_obs"][table][key], value, err_msg=f"final {key}")


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_refused_action_among_64_tables_moves_no_table(system: str) -> None:
    kwargs: dict[str, Any] = {"opponents": "random", "illegal_penalty": None}
    ours = vector_env(system, TABLES, **kwargs)
    twin = vector_env(system, TABLES, **kwargs)
    ours.reset(seed=5)
    twin.reset(seed=5)
    rng = np.random.default_rng(3)
    refused = ended = 0
    for step in range(18):
        masks = ours.action_masks()
        np.testing.assert_array_equal(masks, twin.action_masks())
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        if step % 3 == 1:
            table = int(rng.integers(TABLES))
            before = [_state(env) for env in ours.envs]
            for bad_index in (int(np.flatnonzero(~masks[table])[0]), masks.shape[1], -1):
                bad = actions.copy()
                bad[table] = bad_index
                with pytest.raises(IllegalAction, match=f"table {table}"):
                    ours.step(bad if bad_index >= 0 else bad.tolist())
                refused += 1
            assert [_state(env) for env in ours.envs] == before
            np.testing.assert_array_equal(ours.action_masks(), masks)
        mine = ours.step(actions)
        _same(mine, twin.step(actions), step)
        ended += int(mine[2].sum())
    assert refused and ended


def test_the_infos_of_every_table_are_those_gymnasiums_add_info_makes() -> None:
    """Reset's infos (a column per key at once) and any other rows (Gymnasium's own ``_add_info``, table by
    table): the same keys in the same order, the same dtypes and values."""
    tables = vector_env("guangdong", 4, opponents="random")
    _, infos = tables.reset(seed=7)
    assert list(infos) == ["reward_before_first_decision", "_reward_before_first_decision", "skipped_matches",
                           "_skipped_matches"]
    for rows in ([{"a": 1, "b": 0.5}, {"a": 2, "b": 1.5}, {"a": 3, "b": 2.5}, {"a": 4, "b": -1.0}],
                 [{"a": True}, {"a": False}, {"a": True}, {"a": True}],
                 [{"a": 1}, {"a": 2.5}, {"a": 3}, {"a": 4}],  # (one type per column only: the table by table path)
                 [{"a": 1}, {"b": 2}, {}, {"a": 4, "b": 1}],
                 [{}, {}, {}, {}],
                 [{"a": np.int8(1)}, {"a": np.int8(2)}, {"a": np.int8(3)}, {"a": np.int8(4)}],
                 [{"a": {"c": 1}}, {"a": {"c": 2}}, {"a": {}}, {"a": "x"}]):
        expected: dict[str, Any] = {}
        for table, row in enumerate(rows):
            expected = tables._add_info(expected, row, table)
        got = tables._every_info(rows)
        assert list(got) == list(expected)
        for key, value in expected.items():
            if isinstance(value, dict):
                assert got[key].keys() == value.keys()
                continue
            assert got[key].dtype == value.dtype
            np.testing.assert_array_equal(got[key], value)


def test_a_table_that_ended_before_a_refusal_in_the_same_step_is_dealt_anew() -> None:
    """An opponent's refused answer at one table stops the step there; a table that ended before it in that step
    is dealt anew (each table at a decision of its learner, as after any step), the refusing table as it was."""
    from hupai import HupaiError

    tables = vector_env("guangdong", 3, opponents="random")
    tables.reset(seed=4)
    first, second = tables.envs[0], tables.envs[1]
    match = first.aec.match
    before = _state(second)

    def refuse(index: int, legal: bool) -> tuple[float, bool, dict[str, Any]]:
        raise HupaiError("the opponent answered with no legal action")

    first._play = lambda index, legal: (0.0, True, {})  # (reports the end of its match)
    second._play = refuse
    with pytest.raises(HupaiError, match="no legal action"):
        tables.step(np.argmax(tables.action_masks(), axis=1))
    assert first.aec.match is not match and not first.aec.terminations[first.agent]
    assert _state(second) == before
