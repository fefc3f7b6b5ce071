"""Gymnasium single-agent forms: one seat learns, the server-side bots play the others.

:class:`HupaiGym` is a ``gymnasium.Env`` over :class:`~hupai.env.aec.HupaiAEC`: ``step(index)`` applies the
learner's action, then lets the opponents act until the learner must decide again or the match ends; the
reward is the learner's payments of the hands that ended meanwhile. The opponents are seeded from the episode's
seed, so ``reset(seed=s)`` and the same actions replay the same game. :class:`HupaiVectorEnv` steps N such
tables at once (``gymnasium.vector.VectorEnv``) and adds, for all N in one batched core call, the
``discard_shanten`` feature: the learner's shanten after each discard.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..analysis import shanten_batch
from ..bots import GreedyBot, RandomBot
from ..errors import HupaiError
from ..game.match import Player
from ..rules.base import Rules
from .aec import HupaiAEC

__all__ = ["HupaiGym", "HupaiVectorEnv", "MAX_ENVS"]

#: The most tables one vector environment steps (a bound on what a caller can ask for).
MAX_ENVS = 4096
_BOTS: dict[str, Callable[[int], Player]] = {"greedy": GreedyBot, "random": RandomBot}


def _opponents(opponents: str | Callable[[int], Player] | Sequence[str | Callable[[int], Player]],
               count: int) -> list[Callable[[int], Player]]:
    items = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * count
    if len(items) != count:
        raise HupaiError(f"opponents: one for every other seat ({count}), got {len(items)}")
    out = []
    for item in items:
        if isinstance(item, str):
            if item not in _BOTS:
                raise HupaiError(f"unknown opponent {item!r} (known: {', '.join(_BOTS)}, or a factory f(seed))")
            out.append(_BOTS[item])
        elif callable(item):
            out.append(item)
        else:
            raise HupaiError(f"an opponent is a bot name or a factory f(seed) -> player, got {item!r}")
    return out


class HupaiGym(gymnasium.Env):
    """One seat (``seat``) of a match against ``opponents`` (``"greedy"``, ``"random"``, a factory
    ``f(seed) -> player``, or one per other seat). An action index the mask rules out leaves the game as it was
    and is rewarded ``illegal_penalty`` (``info["illegal_action"]``); ``illegal_penalty=None`` raises
    :class:`~hupai.IllegalAction` instead."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, rules: str | Rules = "guangdong", options: dict[str, Any] | None = None, *,
                 opponents: Any = "greedy", seat: int = 0, hands: int = 1, claim_window: str = "all",
                 illegal_penalty: float | None = -1.0, render_mode: str | None = None) -> None:
        self.illegal_penalty = illegal_penalty
        self.aec = HupaiAEC(rules, options, hands=hands, claim_window=claim_window)
        n = self.aec.rules.num_players
        if type(seat) is not int or not 0 <= seat < n:
            raise HupaiError(f"seat must be an int in 0..{n - 1}, got {seat!r}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self._factories = _opponents(opponents, n - 1)
        self._bots: dict[str, Player] = {}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        assert self.aec.match is not None
        base = self.aec.match.seed
        others = [agent for agent in self.aec.possible_agents if agent != self.agent]
        # The opponents' seeds come from the match seed: the same reset seed, the same opponents' play.
        self._bots = {agent: factory((base * 7919 + index + 1) % (1 << 63))
                      for index, (agent, factory) in enumerate(zip(others, self._factories, strict=True))}
        reward = self._advance()
        return self.aec.observe(self.agent), {"reward_before_first_decision": reward}

    def _advance(self) -> float:
        """Let the opponents act until the learner must decide or the match ends; the learner's reward."""
        aec = self.aec
        reward = 0.0
        while True:
            if aec.terminations.get(self.agent, True):
                return reward
            agent = aec.agent_selection
            if agent == self.agent:
                return reward
            assert aec.game is not None
            action = self._bots[agent].act(aec.observation(agent))
            aec.step(aec.action_layout.index(action))
            reward += aec.rewards.get(self.agent, 0.0)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.game is None or aec.terminations.get(self.agent, True):
            raise HupaiError("the episode is over: reset() the environment")
        if aec.agent_selection != self.agent:  # cannot happen between calls: _advance stops only here
            raise HupaiError("not this seat's turn")
        if self.illegal_penalty is not None:
            # Gymnasium's contract: any element of the action space is a valid argument. An index the mask rules
            # out changes nothing and costs the penalty (None: raise IllegalAction, as the AEC form does).
            assert aec.game is not None
            if aec.action_layout.legal_indices(aec.game.legal_actions(self.seat)).get(int(action)) is None:
                return aec.observe(self.agent), float(self.illegal_penalty), False, False, {"illegal_action": True}
        aec.step(action)
        reward = aec.rewards.get(self.agent, 0.0) + self._advance()
        terminated = aec.terminations.get(self.agent, True)
        return aec.observe(self.agent), reward, terminated, False, {}

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


class HupaiVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` :class:`HupaiGym` tables stepped together; an ended table resets itself (the next seed of
    its sequence). Observations are stacked per key, plus ``discard_shanten`` (mahjong family: ``int8[N,
    34]``, the learner's shanten after discarding each kind it holds, 99 elsewhere; computed for all tables in
    one core call)."""

    def __init__(self, rules: str | Rules = "guangdong", num_envs: int = 8, **kwargs: Any) -> None:
        if type(num_envs) is not int or not 1 <= num_envs <= MAX_ENVS:
            raise HupaiError(f"num_envs must be an int in 1..{MAX_ENVS}, got {num_envs!r}")
        self.envs = [HupaiGym(rules, **kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        first = self.envs[0]
        self._mahjong = first.aec.rules.family == "mahjong"
        kinds = first.aec.features.kinds
        single = dict(first.aec.features.spaces().spaces)
        single["discard_shanten"] = spaces.Box(-1, 99, (kinds,), np.int8)
        self.single_observation_space = spaces.Dict(single)
        self.single_action_space = first.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
        self._forms = int(first.aec.rules.win_forms)

    def _stack(self, observations: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        out = {key: np.stack([obs[key] for obs in observations]) for key in observations[0]}
        hands = out["hand"]
        kinds = hands.shape[1]
        shanten = np.full((len(observations), kinds), 99, dtype=np.int8)
        if self._mahjong:
            # One row per (table, kind held) of a hand that must discard (3n+2 tiles): the hand less that kind,
            # with the melds its size implies, every table in one batched core call.
            sizes = hands.sum(axis=1, dtype=np.int64)
            tables, held = np.nonzero(hands * (sizes % 3 == 2)[:, None])
            if len(tables):
                rows = hands[tables].astype(np.uint8)
                rows[np.arange(len(tables)), held] -= 1
                melds = (14 - sizes[tables]) // 3
                shanten[tables, held] = shanten_batch(rows, melds=melds, forms=self._forms)
        out["discard_shanten"] = shanten
        return out

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        seeds = seed if isinstance(seed, list) else [None if seed is None else seed + i for i in range(self.num_envs)]
        observations = [env.reset(seed=s)[0] for env, s in zip(self.envs, seeds, strict=True)]
        return self._stack(observations), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        observations, rewards, terminated = [], np.zeros(self.num_envs), np.zeros(self.num_envs, dtype=bool)
        for index, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            obs, reward, done, _, _ = env.step(action)
            rewards[index], terminated[index] = reward, done
            if done:
                obs, _ = env.reset()
            observations.append(obs)
        return self._stack(observations), rewards, terminated, np.zeros(self.num_envs, dtype=bool), {}
