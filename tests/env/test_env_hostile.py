"""hupai.env against a hostile or careless caller (issue 22 item 1): use before reset() and after the end, action
indices of every wrong type, seeds, episodes that end before the learner acts, the vector form's equivalence
with N single tables under Gymnasium's own SyncVectorEnv, and the observation spaces against the arrays really
returned. Every failure is a HupaiError (IllegalAction for an action), and a refused action changes nothing."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="hupai.env needs the env extra (make install)")
gymnasium = pytest.importorskip("gymnasium", reason="hupai.env needs the env extra (make install)")

import hupai  # noqa: E402
from hupai import HupaiError, IllegalAction  # noqa: E402
from hupai.bots import GreedyBot  # noqa: E402
from hupai.env import aec_env, gym_env, vector_env  # noqa: E402
from hupai.env.single import HupaiGym  # noqa: E402

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _first_legal(observation: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def _play_to_the_end(env) -> None:
    for _ in env.agent_iter(max_iter=50_000):
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else _first_legal(observation))


def test_the_aec_env_refuses_use_before_reset_and_after_the_end() -> None:
    env = aec_env("kawuxing")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("seat_0")):
        with pytest.raises(HupaiError, match="reset"):
            call()
    env.reset(seed=3)
    with pytest.raises(HupaiError, match="no agent 'seat_9'"):
        env.observe("seat_9")
    # A seat that is done may only be stepped with None (PettingZoo's dead step): anything else is refused.
    for _ in env.agent_iter(max_iter=50_000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with pytest.raises(IllegalAction, match="only action is None"):
                env.step(0)
            env.step(None)
            continue
        env.step(_first_legal(observation))
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(HupaiError, match="episode is over"):
            call()
    env.reset(seed=3)  # and it plays again
    assert env.agents


@pytest.mark.parametrize("form", ["aec", "gym"])
def test_action_indices_are_what_the_discrete_space_holds_and_nothing_else(form: str) -> None:
    """An int, a numpy integer or a 0-d integer array (all elements of ``Discrete(n)``) is an action; a bool, a
    float, None, a string, a 1-element array or an index out of range raises IllegalAction in both forms (the
    single-agent form's penalty is for masked-out indices of the space only), and the game stays as it was."""
    if form == "aec":
        env = aec_env("guangdong")
        env.reset(seed=1)
        observation = env.observe(env.agent_selection)
        game = lambda: env.game  # noqa: E731
        step = env.step
    else:
        single = gym_env("guangdong", opponents="random")
        observation, _ = single.reset(seed=1)
        game = lambda: single.aec.game  # noqa: E731
        step = single.step
    legal = _first_legal(observation)
    n = len(observation["action_mask"])
    before = game().snapshot()
    for bad in (None, "3", 1.5, float(legal), np.float32(legal), True, np.bool_(True), np.array([legal]), -1, n,
                2**70, [legal]):
        with pytest.raises(IllegalAction, match="action index must be an int"):
            step(bad)
        assert game().snapshot() == before, bad
    step(np.array(legal, dtype=np.int16))  # a 0-d integer array is an element of Discrete(n)
    assert game().snapshot() != before


def test_the_single_agent_form_takes_its_penalty_from_gym_env() -> None:
    observation, _ = (strict := gym_env("guangdong", opponents="random", illegal_penalty=None)).reset(seed=1)
    masked = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = strict.aec.game.snapshot()
    with pytest.raises(IllegalAction, match="not legal now"):
        strict.step(masked)
    assert strict.aec.game.snapshot() == before
    lenient = gym_env("guangdong", opponents="random", illegal_penalty=-2.5)
    lenient.reset(seed=1)
    _, reward, terminated, _, info = lenient.step(np.int64(masked))
    assert reward == -2.5 and not terminated and info == {"illegal_action": True}
    for bad in ("high", True, float("nan")):
        with pytest.raises(HupaiError, match="illegal_penalty"):
            gym_env("guangdong", illegal_penalty=bad)


def test_seeds_are_checked_before_gymnasium_sees_them() -> None:
    single = gym_env("yunxiao", opponents="random")
    for bad in (-1, 2**64, 3.0, "3", True):
        with pytest.raises(HupaiError, match="seed must be an int"):
            single.reset(seed=bad)
    first, _ = single.reset(seed=np.uint64(2**64 - 1))  # a numpy seed is a seed
    again, _ = gym_env("yunxiao", opponents="random").reset(seed=2**64 - 1)
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])


def test_an_episode_starts_at_a_decision_of_the_learner() -> None:
    """Kawuxing, seed 252, seat 1, claim window "eligible": the first match's dealer is seat 2, and the hand ends
    (seat 0 wins on the dealer's first discard) before seat 1 is asked anything. Gymnasium's reset() must return
    a state to act in, so that match is skipped, the next of the seed's sequence dealt, the same every time."""
    probe = aec_env("kawuxing", claim_window="eligible")
    probe.reset(seed=252)
    bots = [GreedyBot((probe.match.seed * 7919 + i + 1) % (1 << 63)) for i in range(2)]
    asked = set()
    while not probe.game.over:
        agent = probe.agent_selection
        asked.add(agent)
        if agent == "seat_1":
            break
        probe.step(probe.action_layout.index(bots[0 if agent == "seat_0" else 1].act(probe.observation(agent))))
    assert "seat_1" not in asked, "the premise: seed 252's first match ends before seat 1 acts"
    runs = []
    for _ in range(2):
        single = gym_env("kawuxing", seat=1, opponents="greedy", claim_window="eligible")
        observation, info = single.reset(seed=252)
        assert info["skipped_matches"] == 1 and single.aec.agent_selection == "seat_1"
        assert observation["action_mask"].any()
        single.step(_first_legal(observation))  # playable
        runs.append(single.aec.game.to_json())
    assert runs[0] == runs[1]


def test_opponents_include_evbot_and_a_factory_must_make_a_player() -> None:
    single = gym_env("kawuxing", opponents=["ev", "greedy"])
    observation, _ = single.reset(seed=4)
    assert observation["action_mask"].any()
    with pytest.raises(HupaiError, match="not a player"):
        gym_env("guangdong", opponents=lambda seed: 3).reset(seed=1)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_vector_form_is_n_single_tables_under_gymnasiums_sync_vector_env(system: str) -> None:
    """Same seeds, same actions (a masked-out one now and then): the same observations, rewards, terminations,
    final observations of the tables that ended and infos as ``gymnasium.vector.SyncVectorEnv`` over
    ``gym_env`` tables, and every observation inside the declared space."""
    kwargs = {"opponents": "random", "claim_window": "eligible"}
    ours = vector_env(system, num_envs=3, **kwargs)
    theirs = gymnasium.vector.SyncVectorEnv([lambda: gym_env(system, **kwargs) for _ in range(3)],
                                            autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)
    mine, _ = ours.reset(seed=11)
    reference, _ = theirs.reset(seed=11)
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(150):
        for key, value in reference.items():
            np.testing.assert_array_equal(mine[key], value, err_msg=f"{key} at step {step}")
        assert ours.observation_space.contains(mine)
        actions = np.array([int(rng.choice(np.flatnonzero(mask) if step % 7 else np.flatnonzero(mask == 0)))
                            for mask in mine["action_mask"]])
        mine, rewards, terminated, truncated, infos = ours.step(actions)
        reference, their_rewards, their_terminated, _, their_infos = theirs.step(actions)
        np.testing.assert_array_equal(rewards, their_rewards)
        np.testing.assert_array_equal(terminated, their_terminated)
        assert not truncated.any() and sorted(infos) == sorted(their_infos)
        for table in np.flatnonzero(terminated):
            ended += 1
            for key, value in their_infos["final_obs"][table].items():
                np.testing.assert_array_equal(infos["final_obs"][table][key], value)
    assert ended
    ours.close()
    assert ours.closed


def test_a_refused_vector_step_moves_no_table() -> None:
    tables = vector_env("guangdong", num_envs=3, opponents="random", illegal_penalty=None)
    with pytest.raises(HupaiError, match="reset"):
        tables.step([0, 0, 0])
    observations, _ = tables.reset(seed=2)
    before = [env.aec.game.snapshot() for env in tables.envs]
    legal = [_first_legal({"action_mask": mask}) for mask in observations["action_mask"]]
    masked = int(np.flatnonzero(observations["action_mask"][2] == 0)[0])
    for bad in (None, legal[:2], [*legal, 0], [legal[0], legal[1], None], [legal[0], legal[1], masked], 5):
        with pytest.raises(IllegalAction):
            tables.step(bad)
        assert [env.aec.game.snapshot() for env in tables.envs] == before
    for bad_seed in ([1, 2], -1, "7", 2**64 - 2, [1, 2, -3]):
        with pytest.raises(HupaiError, match="seed"):
            tables.reset(seed=bad_seed)
        assert [env.aec.game.snapshot() for env in tables.envs] == before  # no table dealt again


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_observation_of_every_seat_is_in_its_space(system: str) -> None:
    """Whole matches of random and greedy play, every seat observed at every step (the seats not to act, the
    hand's end and the match's end included): dtype, shape and bounds as declared."""
    for seed in range(3):
        env = aec_env(system, hands=2, claim_window="all")
        env.reset(seed=seed)
        space = env.observation_space("seat_0")
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter(max_iter=50_000):
            for agent in env.possible_agents:
                observation = env.observe(agent)
                bad = [key for key, part in space.spaces.items() if not part.contains(observation[key])]
                assert not bad, f"{system} seed {seed} {agent}: {bad} outside the space"
            observation, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_checkers_pass_with_every_seat_asked_and_longer_episodes(system: str) -> None:
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # by design: int8 boxes, say
        api_test(aec_env(system, claim_window="all", hands=2), num_cycles=200)
        seed_test(lambda **kwargs: aec_env(system, claim_window="all", **kwargs), num_cycles=200)
        check_env(HupaiGym(system, opponents="greedy", seat=1, hands=2), skip_render_check=True)
    assert hupai.rules.get(system).num_players in (3, 4)


def test_the_readmes_env_blocks_run() -> None:
    """The README's agent examples run as written with the env extra installed."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = [block for block in re.findall(r"```(?:py|python)\n(.*?)```", readme, flags=re.S) if "hupai.env" in block]
    assert blocks, "the README's Agents section has no example"
    for index, block in enumerate(blocks):
        exec(compile(block, f"README.md py block {index}", "exec"), {})


def test_render_modes_follow_the_libraries(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test (it asks for "human" first): "human" prints a line per step and render() returns
    None, "ansi" returns the line and prints nothing; an unknown mode is refused in both forms."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: aec_env("kawuxing", render_mode=render_mode))
    capsys.readouterr()
    quiet = gym_env("guangdong", opponents="random", render_mode="ansi")
    observation, _ = quiet.reset(seed=1)
    quiet.step(_first_legal(observation))
    assert capsys.readouterr().out == "" and quiet.render().startswith("guangdong hand")
    loud = gym_env("guangdong", opponents="random", render_mode="human")
    observation, _ = loud.reset(seed=1)
    loud.step(_first_legal(observation))
    assert loud.render() is None and "to act" in capsys.readouterr().out
    for make in (aec_env, gym_env):
        with pytest.raises(HupaiError, match="render_mode"):
            make("guangdong", render_mode="rgb_array")


def test_a_features_layout_needs_room_for_a_discard() -> None:
    """max_discards=0 kept every discard (``pile[-0:]``) in a row of width 0: a ValueError at the first encode."""
    from hupai.env import Features

    rules = hupai.rules.get("guangdong")
    for bad in (0, -3, 2.5, True):
        with pytest.raises(HupaiError, match="max_discards"):
            Features(rules, max_discards=bad)
    assert Features(rules, max_discards=1).shapes()["discards"][0] == (4, 1)
