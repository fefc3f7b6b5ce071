"""hupai.env: PettingZoo's and Gymnasium's own checkers, the action layout, features from the observation only,
seeds, rewards, and the vector form (issue 22 items 1-2)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="hupai.env needs the env extra (make install)")
pytest.importorskip("gymnasium", reason="hupai.env needs the env extra (make install)")

import hupai  # noqa: E402
from hidden import blind_twin  # noqa: E402
from hupai import IllegalAction  # noqa: E402
from hupai.bots import GreedyBot, RandomBot  # noqa: E402
from hupai.env import ActionSpace, Features, aec_env, gym_env, vector_env  # noqa: E402
from hupai.game import Game  # noqa: E402

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _quiet(call, *args, **kwargs):  # the checkers warn about things that are by design (int8 boxes, say)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(*args, **kwargs)


@pytest.mark.parametrize("system", SYSTEMS)
def test_aec_env_passes_pettingzoo_api_test(system: str) -> None:
    from pettingzoo.test import api_test

    _quiet(api_test, aec_env(system, claim_window="eligible"), num_cycles=300)


@pytest.mark.parametrize("system", SYSTEMS)
def test_gym_env_passes_gymnasium_check_env(system: str) -> None:
    from gymnasium.utils.env_checker import check_env

    _quiet(check_env, gym_env(system, opponents="random", claim_window="eligible"), skip_render_check=True)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_legal_action_has_its_own_index(system: str) -> None:
    """Over whole hands of greedy and random play, every legal action of every decision maps to an index of its
    own and back (the layout is the documented one: blocks in describe() order, covering 0..n-1)."""
    rules = hupai.rules.get(system)
    space = ActionSpace(rules)
    blocks = space.describe()
    assert blocks[0]["start"] == 0 and sum(b["size"] for b in blocks) == space.n
    seen: set[tuple[str, str]] = set()
    for seed in range(40):
        game = Game(system, seed=seed, claim_window="all")
        bots = [(GreedyBot if seed % 2 else RandomBot)(seed * 5 + s) for s in range(rules.num_players)]
        while not game.over:
            for seat in game.seats_to_act:
                legal = game.legal_actions(seat)
                by_index = space.legal_indices(legal)
                assert len(by_index) == len(legal)
                for index, action in by_index.items():
                    assert space.action(index, legal) == action
                    seen.add((action.kind, action.flag))
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert ("discard", "") in seen and ("pass", "") in seen


@pytest.mark.parametrize("system", SYSTEMS)
def test_features_do_not_depend_on_another_seats_hidden_tiles(system: str) -> None:
    rules = hupai.rules.get(system)
    features = Features(rules)
    game = Game(system, seed=11, claim_window="all")
    bots = [RandomBot(s) for s in range(rules.num_players)]
    step = 0
    while not game.over:
        if step % 4 == 0:
            for seat in range(rules.num_players):
                twin = blind_twin(game, (seat + 1) % rules.num_players)
                mine = features.encode(game.observation(seat))
                theirs = features.encode(twin.observation(seat))
                for key in mine:
                    np.testing.assert_array_equal(mine[key], theirs[key], err_msg=f"{key} shows another hand")
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
        step += 1


def test_features_are_a_function_of_the_observation_alone() -> None:
    """The encoder takes an Observation: the same observation through JSON gives the same arrays."""
    for system in SYSTEMS:
        rules = hupai.rules.get(system)
        features = Features(rules)
        game = Game(system, seed=3)
        bots = [RandomBot(s) for s in range(rules.num_players)]
        for _ in range(30):
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            again = type(observation).from_json(observation.to_json())
            mine, theirs = features.encode(observation), features.encode(again)
            for key in mine:
                np.testing.assert_array_equal(mine[key], theirs[key])
            game.apply(bots[seat].act(observation))


def _play_aec(system: str, seed: int) -> tuple[list[str], dict[str, float]]:
    env = aec_env(system, hands=2, claim_window="eligible", reward_scale=1.0)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    logs = []
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter(max_iter=20_000):
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        if env.game is not None and env.game.over and env.game.to_json() not in logs:
            logs.append(env.game.to_json())
    return logs, totals


@pytest.mark.parametrize("system", SYSTEMS)
def test_seeds_reproduce_games_and_rewards_are_the_payments(system: str) -> None:
    first, totals = _play_aec(system, 5)
    second, again = _play_aec(system, 5)
    assert first == second and totals == again
    # The rewards over the episode add up to the match's scores.
    replay = aec_env(system, hands=2, claim_window="eligible", reward_scale=1.0)
    match_scores = {agent: 0.0 for agent in replay.possible_agents}
    replay.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in replay.agent_iter(max_iter=20_000):
        observation, reward, terminated, truncated, _ = replay.last()
        match_scores[agent] += reward
        replay.step(None if terminated or truncated
                    else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert list(match_scores.values()) == [float(s) for s in replay.match.scores]


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    env = aec_env("guangdong")
    env.reset(seed=1)
    observation, *_ = env.last()
    before = env.game.snapshot()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    for bad in (illegal, -1, env.action_layout.n, 1.5, "3", True):
        with pytest.raises(IllegalAction):
            env.step(bad)
    assert env.game.snapshot() == before


def test_bounds_and_errors() -> None:
    with pytest.raises(hupai.HupaiError):
        aec_env("guangdong", hands=0)
    with pytest.raises(hupai.HupaiError):
        vector_env("guangdong", num_envs=10**9)
    with pytest.raises(hupai.HupaiError):
        gym_env("guangdong", opponents="nobody")
    with pytest.raises(hupai.HupaiError):
        aec_env("guangdong").reset(seed=-1)


@pytest.mark.parametrize("system", SYSTEMS)
def test_vector_env_steps_tables_and_its_batched_shanten_is_the_cores(system: str) -> None:
    envs = vector_env(system, num_envs=4, opponents="random", claim_window="eligible")
    observations, _ = envs.reset(seed=7)
    assert observations["action_mask"].shape == (4, envs.envs[0].aec.action_layout.n)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(60):
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in observations["action_mask"]]
        observations, rewards, terminated, truncated, _ = envs.step(actions)
        assert rewards.shape == (4,) and not truncated.any()
        if system != "waihuzi":
            for row in range(4):
                hand = observations["hand"][row].astype(np.uint8)
                if hand.sum() % 3 != 2:
                    continue
                for kind in np.flatnonzero(hand):
                    rest = hand.copy()
                    rest[kind] -= 1
                    melds = (14 - int(hand.sum())) // 3
                    assert observations["discard_shanten"][row, kind] == _rule_shanten(
                        system, rest, melds, observations["facts"][row], envs.envs[0].aec.rules.win_forms)
                    checked += 1
    assert checked or system == "waihuzi"


def _rule_shanten(system: str, rest: np.ndarray, melds: int, facts: np.ndarray, forms: int) -> int:
    """The shanten as the rule system counts it. Yunxiao: the golds are jokers, and 白板 stands as the gold's
    face (YX-6, YX-7); the gold is the first fact (a one-hot over the 34 kinds)."""
    if system != "yunxiao":
        return hupai.shanten(rest, melds=melds, forms=forms)
    gold, white = int(np.argmax(facts[:34])), 31  # 白板
    natural = rest.copy()
    natural[gold] = rest[white] if gold != white else 0
    if gold != white:
        natural[white] = 0
    return hupai.shanten(natural, jokers=int(rest[gold]), melds=melds, forms=forms)
