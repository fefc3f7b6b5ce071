"""gym_env and vector_env with the learner's own action applied by play_until's loop: its plain discard starts the
core's run of the built-in opponents' plain turns (``_core.lean_chain``) in the same crossing. The same arrays,
rewards and games as the opponents' Python path; an opponent that is not RandomBot or GreedyBot as built is never
played by the core; a refused learner action, or an opponent's refused answer after the learner's discard started a
run, leaves the table as it was."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="hupai.env needs the env extra (pip install -e '.[env]')")
pytest.importorskip("gymnasium", reason="hupai.env needs the env extra (pip install -e '.[env]')")

from hupai import (  # noqa: E402
    HupaiError,
    IllegalAction,
    _core,  # noqa: E402
)
from hupai.bots import GreedyBot, RandomBot  # noqa: E402
from hupai.env import gym_env, vector_env  # noqa: E402
from hupai.game.mahjong import flow as flow_module  # noqa: E402


class PyRandom(RandomBot):
    """RandomBot's decisions on its Python path only (a subclass: the core never plays it)."""


class PyGreedy(GreedyBot):
    """GreedyBot's decisions on its Python path only."""


class _Runs:
    """The core's runs (patched over the flow's lean_chain): the seat each started from and the bots given."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.bots: list[tuple[Any, ...]] = []

    def __call__(self, *args: Any) -> Any:
        self.starts.append(args[2])
        self.bots.append(args[8])
        return _core.lean_chain(*args)


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> _Runs:
    counter = _Runs()
    monkeypatch.setattr(flow_module, "lean_chain", counter)
    return counter


def _first_legal(observation: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def _gym_trace(system: str, opponents: Any, steps: int, seat: int = 0) -> list[Any]:
    """Every array, reward and flag a gym_env hands out over ``steps`` random legal steps, and each hand's log."""
    env = gym_env(system, opponents=opponents, seat=seat, hands=2)
    rng = np.random.default_rng(7)
    observation, info = env.reset(seed=11)
    out: list[Any] = []
    for _ in range(steps):
        out.append(({key: observation[key].tobytes() for key in observation}, sorted(info.items())))
        observation, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        out.append((reward, terminated, truncated, env.aec.game.to_json()))
        if terminated or truncated:
            observation, info = env.reset()
    return out


@pytest.mark.parametrize("system", ["guangdong", "kawuxing"])
@pytest.mark.parametrize("bots", [(RandomBot, PyRandom), (GreedyBot, PyGreedy)])
def test_gym_env_plays_as_the_opponents_python_path(system: str, bots: tuple[type, type]) -> None:
    core, python = bots
    assert _gym_trace(system, core, 300) == _gym_trace(system, python, 300)
    assert _gym_trace(system, core, 200, seat=1) == _gym_trace(system, python, 200, seat=1)


def test_vector_env_plays_as_the_opponents_python_path() -> None:
    def trace(opponents: Any) -> list[Any]:
        tables = vector_env("guangdong", 3, opponents=opponents)
        rng = np.random.default_rng(3)
        observation, _ = tables.reset(seed=5)
        out = []
        for _ in range(150):
            actions = [int(rng.choice(np.flatnonzero(row))) for row in observation["action_mask"]]
            observation, rewards, terminated, _, _ = tables.step(actions)
            out.append(({key: observation[key].tobytes() for key in observation}, rewards.tolist(),
                        terminated.tolist(), [env.aec.game.to_json() for env in tables.envs]))
        return out
    assert trace("random") == trace(PyRandom)


def test_the_learners_plain_discard_starts_the_cores_run(runs: _Runs) -> None:
    env = gym_env("guangdong", opponents="random", seat=2)
    rng = np.random.default_rng(1)
    observation, _ = env.reset(seed=4)
    for _ in range(200):
        observation, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if terminated:
            observation, _ = env.reset()
    assert 2 in runs.starts  # the learner's discards start runs
    assert all(bots[2] is None for bots in runs.bots)  # and the core never plays the learner's seat


def test_an_opponent_not_built_in_is_never_played_by_the_core(runs: _Runs) -> None:
    asked = [0]

    class Counted(RandomBot):
        def choose(self, legal_actions: Any) -> Any:
            asked[0] += 1
            return super().choose(legal_actions)

    env = gym_env("guangdong", opponents=["random", Counted, "random"])
    rng = np.random.default_rng(2)
    observation, _ = env.reset(seed=8)
    games = {id(env.aec.game): env.aec.game}
    for _ in range(150):
        observation, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        games.setdefault(id(env.aec.game), env.aec.game)
        if terminated:
            observation, _ = env.reset()
            games.setdefault(id(env.aec.game), env.aec.game)
    assert runs.starts and all(bots[2] is None for bots in runs.bots)
    # Every action of seat 2 (the Counted opponent) came from its own choose (more if a match was skipped).
    assert asked[0] >= sum(action.seat == 2 for game in games.values() for action in game._actions) > 0
    only_python = gym_env("guangdong", opponents=PyRandom)
    before = len(runs.starts)
    observation, _ = only_python.reset(seed=8)
    for _ in range(100):
        observation, _, terminated, _, _ = only_python.step(_first_legal(observation))
        if terminated:
            observation, _ = only_python.reset()
    assert len(runs.starts) == before  # no bot the core may play: no run at all


def _rng_states(env: Any) -> list[bytes]:
    return [bytes(bot._rng.state) for bot in env._bots.values()]


def _discard_step(env: Any, observation: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Steps (first legal action) until the learner's decision is a turn of discards (nothing else offered)."""
    while True:
        legal = env.aec.game.legal_actions(env.seat)
        if all(action.kind == "discard" for action in legal):
            return observation
        observation, _, terminated, _, _ = env.step(_first_legal(observation))
        assert not terminated


@pytest.mark.parametrize("penalty", [-1.0, None])
def test_a_refused_learner_action_changes_nothing_after_runs(runs: _Runs, penalty: float | None) -> None:
    env = gym_env("guangdong", opponents="random", illegal_penalty=penalty)
    twin = gym_env("guangdong", opponents="random")
    observation, _ = env.reset(seed=6)
    twin_observation, _ = twin.reset(seed=6)
    for _ in range(3):
        observation = _discard_step(env, observation)
        twin_observation = _discard_step(twin, twin_observation)
        legal = _first_legal(observation)
        masked = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        before, states, scores = env.aec.game.snapshot(), _rng_states(env), list(env.aec.match.scores)
        if penalty is None:
            with pytest.raises(IllegalAction, match="not legal now"):
                env.step(masked)
        else:
            assert env.step(masked)[1:] == (penalty, False, False, {"illegal_action": True})
        assert env.aec.game.snapshot() == before and _rng_states(env) == states
        assert env.aec.match.scores == scores and env.aec.agent_selection == env.agent
        started = len(runs.starts)
        observation, reward, _, _, _ = env.step(legal)  # and the table plays on as its twin
        assert runs.starts[started] == env.seat  # (the learner's discard started a run)
        twin_observation, twin_reward, _, _, _ = twin.step(legal)
        assert env.aec.game.to_json() == twin.aec.game.to_json() and reward == twin_reward
        for key in observation:
            np.testing.assert_array_equal(observation[key], twin_observation[key])


class _Sulks(RandomBot):
    """RandomBot (its Python path: a subclass) until told to answer None."""

    sulking = False

    def choose(self, legal_actions: Any) -> Any:
        return None if self.sulking else super().choose(legal_actions)

    def act(self, observation: Any) -> Any:
        return None if self.sulking else super().act(observation)


def test_an_opponents_refusal_after_the_learners_run_restores_the_table(runs: _Runs) -> None:
    made: list[_Sulks] = []

    def factory(seed: int) -> _Sulks:
        made.append(_Sulks(seed))
        return made[-1]

    env = gym_env("guangdong", opponents=["random", "random", factory])
    observation, _ = env.reset(seed=9)
    observation = _discard_step(env, observation)
    made[-1].sulking = True
    before, scores, selection = env.aec.game.snapshot(), list(env.aec.match.scores), env.aec.agent_selection
    started = len(runs.starts)
    legal = _first_legal(observation)
    with pytest.raises(HupaiError, match=r"opponent at seat_3 \(_Sulks\) answered with no legal action"):
        env.step(legal)
    assert runs.starts[started:][:1] == [0]  # the learner's discard started a run before the refusal
    assert env.aec.game.snapshot() == before and env.aec.match.scores == scores
    assert env.aec.agent_selection == selection
    made[-1].sulking = False
    env.step(legal)  # and the table plays on from where it was


def test_vector_env_takes_an_index_array_as_a_list_of_indices() -> None:
    """An integer array of one index per table is checked for the action space in two calls, not table by table:
    the same steps as a list of ints; anything out of range or not integers is still refused before any table
    moves."""
    def trace(as_array: bool) -> list[Any]:
        tables = vector_env("guangdong", 4, opponents="random")
        rng = np.random.default_rng(9)
        observation, _ = tables.reset(seed=2)
        out = []
        for _ in range(40):
            actions = [int(rng.choice(np.flatnonzero(row))) for row in observation["action_mask"]]
            chosen: Any = np.array(actions, dtype=np.int64) if as_array else actions
            observation, rewards, terminated, _, _ = tables.step(chosen)
            out.append(({key: observation[key].tobytes() for key in observation}, rewards.tolist(),
                        terminated.tolist()))
        return out
    assert trace(True) == trace(False)
    tables = vector_env("guangdong", 3, opponents="random")
    observation, _ = tables.reset(seed=1)
    before = [env.aec.game.snapshot() for env in tables.envs]
    n = observation["action_mask"].shape[1]
    for bad in (np.array([0, 0, n]), np.array([-1, 0, 0]), np.array([True, False, True]), np.array([0.0, 1.0, 2.0]),
                np.array([0, 0])):
        with pytest.raises(IllegalAction):
            tables.step(bad)
        assert [env.aec.game.snapshot() for env in tables.envs] == before
