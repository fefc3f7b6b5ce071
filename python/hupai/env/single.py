"""Gymnasium single-agent forms: one seat learns, the server-side bots play the others.

:class:`HupaiGym` is a ``gymnasium.Env`` over :class:`~hupai.env.aec.HupaiAEC`: ``step(index)`` applies the
learner's action, then lets the opponents act until the learner must decide again or the match ends; the
reward is the learner's payments of the hands that ended meanwhile. The opponents are seeded from the episode's
seed, so ``reset(seed=s)`` and the same actions replay the same game. :class:`HupaiVectorEnv` steps N such
tables at once (``gymnasium.vector.VectorEnv``), counting the ``discard_shanten`` feature of every table in
batched core calls. Both ask the learner only about decisions with a choice by default (claim window
``"eligible"``) and give ``action_masks()`` as sb3-contrib's MaskablePPO reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

from ..bots import GreedyBot, RandomBot
from ..errors import HupaiError, IllegalAction
from ..ev import EVBot
from ..game import Game
from ..game.match import Player, play_until
from ..rules.base import Rules
from ..search import SearchBot
from .aec import HupaiAEC, check_seed
from .features import Encoder

__all__ = ["HupaiGym", "HupaiVectorEnv", "MAX_ENVS", "MAX_SKIPPED"]

#: The most tables one vector environment steps (a bound on what a caller can ask for).
MAX_ENVS = 4096
#: The most matches in a row one reset() deals and skips because they ended before the learner's first decision
#: (the dealer's win on its first turn, which the learner sees only if the claim window asks it): a bound, never
#: reached in practice.
MAX_SKIPPED = 1000
_BOTS: dict[str, Callable[[int], Player]] = {"greedy": GreedyBot, "random": RandomBot, "ev": EVBot,
                                             "search": SearchBot}


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
    """One seat (``seat``) of a match against ``opponents`` (``"greedy"``, ``"random"``, ``"ev"``, ``"search"``, a
    factory ``f(seed) -> player``, or one per other seat). An action index the mask rules out leaves the game as it was
    and is rewarded ``illegal_penalty`` (``info["illegal_action"]``); ``illegal_penalty=None`` raises
    :class:`~hupai.IllegalAction` instead. What is no index of the action space at all (not an integer, out of
    range) raises IllegalAction either way.

    An episode always starts at a decision of the learner: a match that ends before it (the dealer wins on its
    first draw and nobody else is asked anything) is skipped at ``reset()``, and the next match of the seed's
    sequence dealt (``info["skipped_matches"]`` counts them; the same seed skips the same)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, rules: str | Rules = "guangdong", options: dict[str, Any] | None = None, *,
                 opponents: Any = "greedy", seat: int = 0, hands: int = 1, claim_window: str = "eligible",
                 illegal_penalty: float | None = -1.0, reward_scale: float | None = None,
                 render_mode: str | None = None, layout_of: HupaiGym | None = None) -> None:
        if illegal_penalty is not None and (isinstance(illegal_penalty, bool) or not isinstance(
                illegal_penalty, (int, float, np.integer, np.floating)) or not np.isfinite(illegal_penalty)):
            raise HupaiError(f"illegal_penalty must be a finite number or None, got {illegal_penalty!r}")
        self.illegal_penalty = illegal_penalty
        self.aec: HupaiAEC = HupaiAEC(rules, options, hands=hands, claim_window=claim_window,
                                      reward_scale=reward_scale, render_mode=render_mode,
                                      layout_of=None if layout_of is None else layout_of.aec)
        n = self.aec.rules.num_players
        if isinstance(seat, np.integer):
            seat = int(seat)
        if type(seat) is not int or not 0 <= seat < n:
            raise HupaiError(f"seat must be an int in 0..{n - 1}, got {seat!r}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self._factories = _opponents(opponents, n - 1)
        self._bots: dict[str, Player] = {}
        self._players: list[Player | None] = []  # by seat, None at the learner's
        # Whether features were returned, and the observation they encode once made (last_observation makes it
        # when first read, of the table as it stands: most training loops never read it, and the table moves only
        # in a step, which returns features again).
        self._observed = False
        self._observation: Any = None
        self._mask: np.ndarray | None = None  # the action mask last returned
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    @property
    def last_observation(self) -> Any:
        """The :class:`~hupai.observation.Observation` whose features were last returned (None before the first),
        made when first read."""
        if self._observation is None and self._observed:
            self._observation = self.aec.observation(self.agent)
        return self._observation

    def _table(self) -> tuple[Any, Any, int]:
        """The learner's (observer, game, seat) to encode now; :attr:`last_observation` is made of them when read."""
        game, observer, seat = self.aec._viewer(self.agent)
        self._observed = True
        self._observation = None
        return observer, game, seat

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        seed = check_seed(seed)  # before Gymnasium's own seeding, which raises its own error type
        super().reset(seed=seed)
        info = self._reset(seed)
        return self._observe(), info

    def _reset(self, seed: int | None) -> dict[str, Any]:
        """A new episode up to the learner's first decision (not observed: the caller encodes); its info."""
        self.aec.reset(seed=seed)
        skipped = 0
        while True:
            self._deal_opponents()
            reward = self._advance()
            if not self.aec.terminations.get(self.agent, True):
                break
            # The match ended before the learner could act: no episode a Gymnasium agent can play (reset must
            # return a state to act in). Deal the next match of this seed's sequence: deterministic.
            skipped += 1
            if skipped > MAX_SKIPPED:
                raise HupaiError(f"{MAX_SKIPPED} matches in a row ended before {self.agent} could act")
            self.aec.reset()
        return {"reward_before_first_decision": reward, "skipped_matches": skipped}

    def _deal_opponents(self) -> None:
        assert self.aec.match is not None
        base = self.aec.match.seed
        others = [agent for agent in self.aec.possible_agents if agent != self.agent]
        # The opponents' seeds come from the match seed: the same reset seed, the same opponents' play.
        self._bots = {}
        for index, (agent, factory) in enumerate(zip(others, self._factories, strict=True)):
            bot = factory((base * 7919 + index + 1) % (1 << 63))
            if not callable(getattr(bot, "act", None)):
                raise HupaiError(f"the opponent factory {factory!r} made {type(bot).__name__!r}, not a player "
                                 "(anything with act(observation))")
            self._bots[agent] = bot
        self._players = [self._bots.get(agent) for agent in self.aec.possible_agents]

    def _advance(self, first: Any = None) -> float:
        """Let the opponents act until the learner must decide or the match ends; the learner's reward. The
        opponents play through :func:`hupai.game.match.play_until` (the engine's own loop: a bot that decides
        from the legal actions alone, such as RandomBot, is never given an observation); the AEC's bookkeeping
        is brought up to date where a hand ends and where the learner is asked. ``first``: the learner's own
        action, legal and its to take now, which that loop applies first (see :meth:`_act`)."""
        aec = self.aec
        reward = 0.0
        while True:
            if aec.terminations.get(self.agent, True):
                return reward
            game = aec.game
            assert game is not None
            if not game.over:
                try:
                    over = play_until(game, self._players, self.seat, aec.observer(game), first)
                    first = None
                except HupaiError as error:  # the game is as it was before that answer: name who gave it
                    seats = game.seats_to_act
                    agent = aec.possible_agents[seats[0]] if seats else "?"
                    bot = self._bots.get(agent)
                    raise HupaiError(f"the opponent at {agent} ({type(bot).__name__}) answered with no legal "
                                     f"action: {error}") from None
                if not over:
                    infos = aec.infos
                    if any(infos.values()) or len(infos) != len(aec.agents):  # else already the empty ones
                        aec.infos = {name: {} for name in aec.agents}
                    aec.agent_selection = self.agent  # (play_until stopped at the learner's seat: _select's answer)
                    return reward
            aec.rewards = {name: 0.0 for name in aec.agents}
            aec._end_hand()
            aec._accumulate_rewards()
            reward += aec.rewards.get(self.agent, 0.0)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        reward, terminated, info = self._act(action)
        return self._observe(), reward, terminated, False, info

    def _act(self, action: Any, legal: bool | None = None) -> tuple[float, bool, dict[str, Any]]:
        """The learner's action and the opponents' answers up to its next decision (not observed: the caller
        encodes): reward, terminated, info. ``legal``: whether the index is legal, if the caller read it from its
        own masks (the vector form)."""
        aec = self.aec
        if aec.game is None or aec.terminations.get(self.agent, True):
            raise HupaiError("the episode is over: reset() the environment")
        if aec.agent_selection != self.agent:  # cannot happen between calls: _advance stops only here
            raise HupaiError("not this seat's turn")
        index = aec.action_layout.as_index(action)  # IllegalAction for what is not in the action space
        if legal is None:
            legal = bool(self._mask[index]) if self._mask is not None else self.is_legal(index)
        return self._play(index, legal)

    def _play(self, index: int, legal: bool) -> tuple[float, bool, dict[str, Any]]:
        """:meth:`_act` once its checks are made (the vector form makes them for all its tables at once): ``index``
        an int of the action space, the episode live at the learner's decision, ``legal`` whether the index is."""
        aec = self.aec
        if self.illegal_penalty is not None and not legal:
            # Gymnasium's contract: any element of the action space is a valid argument. An index the mask rules
            # out changes nothing and costs the penalty (None: raise IllegalAction, as the AEC form does).
            return float(self.illegal_penalty), False, {"illegal_action": True}
        checkpoint = self._checkpoint()
        if aec.render_mode == "human":  # the AEC's step prints its line
            aec.step(index)
            first = None
        else:
            # AECEnv.step's bookkeeping before the action; the action itself is play_until's first, so that a plain
            # discard starts the core's run of the opponents' plain turns in the same crossing (the engine's own
            # object, found in the legal actions: IllegalAction here, before anything changed, for an index of none).
            game = aec.game
            assert game is not None
            first = aec.encoder.action(index, game.legal_actions(self.seat))
            aec._cumulative_rewards[self.agent] = 0.0
            rewards = aec.rewards
            if any(rewards.values()) or len(rewards) != len(aec.agents):
                aec.rewards = {name: 0.0 for name in aec.agents}
        try:
            reward = aec.rewards.get(self.agent, 0.0) + self._advance(first)
        except HupaiError:
            # An opponent's answer was no legal action: the table goes back to before the learner's action, so
            # that the refused step changed nothing (the opponents' own random state excepted).
            self._restore(checkpoint)
            raise
        return reward, aec.terminations.get(self.agent, True), {}

    def _checkpoint(self) -> tuple[Any, ...]:
        """What a step may change, cheaply: the game and how many actions it had, the match's carried fields,
        the AEC's bookkeeping (each a reference: step() replaces these, it does not change them in place)."""
        aec = self.aec
        match = aec.match
        assert aec.game is not None and match is not None
        return (aec.game, len(aec.game._all_actions()), match.rules, match.scores, len(match.results),  # no copy
                match.round_wind, match.dealer, match.hand_index, match.over, aec.agent_selection, aec.rewards,
                dict(aec._cumulative_rewards), aec.terminations, aec.truncations, aec.infos)

    def _restore(self, checkpoint: tuple[Any, ...]) -> None:
        aec = self.aec
        match = aec.match
        assert match is not None
        (game, actions, match.rules, match.scores, results, match.round_wind, match.dealer, match.hand_index,
         match.over, aec.agent_selection, aec.rewards, aec._cumulative_rewards, aec.terminations,
         aec.truncations, aec.infos) = checkpoint
        del match.results[results:]
        aec.game = Game.replay(game.log(), upto=actions, rules=game.rules)
        aec._observer = None

    def _observe(self) -> dict[str, np.ndarray]:
        """The learner's features, keeping the :class:`~hupai.observation.Observation` they encode
        (:attr:`last_observation`)."""
        aec = self.aec
        assert aec.match is not None
        observation = aec.encoder.encode_game(*self._table(), aec.match.scores)
        self._mask = observation["action_mask"]
        return observation

    def action_masks(self) -> np.ndarray:
        """``bool[n]``: the legal actions of the learner now (what sb3-contrib's MaskablePPO asks for)."""
        game = self.aec.game
        if game is None:
            raise HupaiError("reset() the environment first")
        if self._mask is None:  # a table of a vector environment, which keeps the masks of all its tables
            return self.aec.action_layout.mask(game.legal_actions(self.seat)).astype(bool)
        return self._mask.astype(bool)

    def is_legal(self, index: int) -> bool:
        """Whether action ``index`` is legal for the learner now."""
        game = self.aec.game
        return game is not None and index in self.aec.action_layout.legal_indices(game.legal_actions(self.seat))

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


class HupaiVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` :class:`HupaiGym` tables stepped together; an ended table resets itself (the next seed of
    its sequence). Observations are stacked per key, with the features of :class:`HupaiGym`, every table's
    encoded by the core in one call (:meth:`hupai.env.Encoder.encode_many`)."""

    def __init__(self, rules: str | Rules = "guangdong", num_envs: int = 8, **kwargs: Any) -> None:
        if type(num_envs) is not int or not 1 <= num_envs <= MAX_ENVS:
            raise HupaiError(f"num_envs must be an int in 1..{MAX_ENVS}, got {num_envs!r}")
        first = HupaiGym(rules, **kwargs)
        # The other tables share the first one's rules object, action layout, features and spaces.
        others = {**kwargs, "options": None}
        self.envs = [first] + [HupaiGym(first.aec.rules, layout_of=first, **others) for _ in range(num_envs - 1)]
        self.num_envs = num_envs
        self.features = first.aec.features
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
        self._masks: np.ndarray | None = None
        self._encoders = [env.aec.encoder for env in self.envs]

    def _observe_all(self) -> dict[str, np.ndarray]:
        """Every table's learner features, stacked: one core call for all of them."""
        out = self._encode(self.envs, self._encoders)
        self._masks = out["action_mask"]
        return out

    @staticmethod
    def _encode(envs: Sequence[HupaiGym], encoders: Sequence[Encoder] | None = None) -> dict[str, np.ndarray]:
        """The learner features of ``envs``, stacked (one core call), each table's :attr:`HupaiGym.last_observation`
        made of them when read."""
        tables = []
        scores = []
        for env in envs:
            aec = env.aec
            assert aec.match is not None
            env._mask = None  # this table's row of the stacked masks is what it is asked by (no view a table)
            tables.append(env._table())
            scores.append(aec.match.scores)
        return Encoder.encode_many_games(encoders or [env.aec.encoder for env in envs], tables, scores)

    def action_masks(self) -> np.ndarray:
        """``bool[N, n]``: each table's legal actions now (what sb3-contrib's MaskablePPO asks for)."""
        if self._masks is None:
            raise HupaiError("reset() the vector environment first")
        return self._masks.astype(bool)

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Every table anew: ``seed`` s seeds table i with s + i (as ``gymnasium.vector.SyncVectorEnv`` does), a
        list gives each table its own."""
        if seed is None or isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            first = check_seed(seed)
            seeds: list[int | None] = [None if first is None else first + i for i in range(self.num_envs)]
        elif isinstance(seed, (list, tuple, np.ndarray)):
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise HupaiError(f"seed: one per table ({self.num_envs}), got {len(seeds)}")
        else:
            raise HupaiError(f"seed must be an int, a list of one per table or None, got {seed!r}")
        seeds = [check_seed(table_seed) for table_seed in seeds]  # every one before any table is dealt
        dealt = []
        for env, table_seed in zip(self.envs, seeds, strict=True):
            gymnasium.Env.reset(env, seed=table_seed)
            dealt.append(env._reset(table_seed))
        return self._observe_all(), self._every_info(dealt)

    def _every_info(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The infos of every table, as Gymnasium's ``_add_info`` of each table's in turn makes them: a column
        and an all-true mask per key. When every table has the same keys and each key's values one type among
        int, float and bool (reset's infos), a column is one array made at once (``_add_info`` makes two arrays
        and a mask per table and key: most of a 64-table reset's bookkeeping)."""
        keys = list(rows[0])
        columns = [[row[key] for row in rows] for key in keys] if all(list(row) == keys for row in rows) else []
        plain = len(columns) == len(keys) and all(
            type(column[0]) in (int, float, bool) and all(type(value) is type(column[0]) for value in column)
            for column in columns)
        if not plain:
            infos: dict[str, Any] = {}
            for table, row in enumerate(rows):
                infos = self._add_info(infos, row, table)
            return infos
        out: dict[str, Any] = {}
        for key, column in zip(keys, columns, strict=True):
            out[key] = np.array(column, dtype=type(column[0]))
            out["_" + key] = np.ones(len(rows), dtype=np.bool_)
        return out

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per table. Every action is checked before any table moves (IllegalAction for one that is
        no index of the action space, or, with ``illegal_penalty=None``, one the mask rules out), so a refused
        step leaves every table as it was. A table that ends is reset at once, and its last observation and
        info are in ``infos["final_obs"]`` / ``infos["final_info"]`` (Gymnasium's same-step autoreset)."""
        masks = self._masks
        n = self.num_envs
        indices: list[int]
        if (type(actions) is np.ndarray and actions.shape == (n,) and actions.dtype.kind in "iu" and masks is not None
                and 0 <= actions.min() and actions.max() < masks.shape[1]):
            indices = actions.tolist()  # (every one an index of the space: as_index's checks in two calls)
        else:
            try:
                chosen = list(actions)
            except TypeError:
                raise IllegalAction(f"actions: one per table ({n}), got {actions!r}") from None
            if len(chosen) != n:
                raise IllegalAction(f"actions: one per table ({n}), got {len(chosen)}")
            indices = []
            for table, (env, action) in enumerate(zip(self.envs, chosen, strict=True)):
                try:
                    indices.append(env.aec.action_layout.as_index(action))
                except IllegalAction as error:
                    if masks is None:
                        break  # (the error below first)
                    raise IllegalAction(f"table {table}: {error}") from None
        for env in self.envs:
            aec = env.aec
            if masks is None or aec.game is None or aec.terminations.get(env.agent, True):
                raise HupaiError("reset() the vector environment first")
        assert masks is not None
        legal = masks[np.arange(n), indices].tolist()  # every table's at once
        for table, env in enumerate(self.envs):
            if env.illegal_penalty is None and not legal[table]:
                raise IllegalAction(f"table {table}: action index {indices[table]} is not legal now (see its "
                                    "action_mask)")
        rewards, terminated = [0.0] * n, [False] * n
        played: list[dict[str, Any]] = [{}] * n  # (the empty dict shared: never written)
        ended: list[int] = []
        try:
            for table, (env, index) in enumerate(zip(self.envs, indices, strict=True)):
                reward, done, info = env._play(index, legal[table])
                rewards[table] = reward
                if info:
                    played[table] = info
                if done:
                    terminated[table] = True
                    ended.append(table)
        except BaseException:
            # A table refused an opponent's answer (that table as it was): the tables that ended before it are
            # dealt anew all the same, so that every table is at a decision of its learner, as before the step.
            for table in ended:
                self.envs[table]._reset(None)
            raise
        infos: dict[str, Any] = {}
        if ended:
            # The ended tables' last observations in one core call, before any of them is reset (each table's
            # own state: the order of the resets changes nothing); then their infos in table order, as
            # SyncVectorEnv adds them.
            finals = self._encode([self.envs[table] for table in ended])
            final_of = dict(zip(ended, range(len(ended)), strict=True))
            for table in range(n):
                info = played[table]
                row = final_of.get(table)
                if row is not None:
                    infos = self._add_info(infos, {"final_obs": {key: value[row] for key, value in finals.items()},
                                                   "final_info": info}, table)
                    info = self.envs[table]._reset(None)
                if info:  # Gymnasium's _add_info costs as much as a table's step: only for what there is to add
                    infos = self._add_info(infos, info, table)
        else:
            for table, info in enumerate(played):
                if info:
                    infos = self._add_info(infos, info, table)
        return (self._observe_all(), np.array(rewards, dtype=np.float64), np.array(terminated, dtype=bool),
                np.zeros(self.num_envs, dtype=bool), infos)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
