"""PettingZoo's AEC form of a hupai match: the agents are the seats (``"seat_0"``, ...), one acts at a time.

An episode is a match of ``hands`` hands (one by default) of a :class:`hupai.Match`: each hand is dealt from
the wall seed derived from the match seed, so ``reset(seed=s)`` and the same actions give the same game, byte
for byte in each hand's log (:attr:`HupaiAEC.game`). The seat to act is :attr:`agent_selection`; in a claim
window each asked seat answers in turn (``claim_window="all"``, the default, asks every seat about every
discard, so that being asked says nothing about a seat's tiles; ``"eligible"`` asks only seats with a claim,
faster). A seat's reward is its payments when a hand ends (kong money included) times ``reward_scale`` (the
rule system's :data:`~hupai.env.REWARD_SCALES` entry by default), zero otherwise; ``infos[agent]["payments"]``
holds the hand's payments unscaled.
"""

from __future__ import annotations

import secrets
from typing import Any, NoReturn

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from .. import rules as rules_module
from ..errors import HupaiError, IllegalAction
from ..game import Game, Match, Observer
from ..game.mahjong.claims import CLAIM_WINDOWS
from ..rules.base import Rules
from .actions import ActionSpace
from .features import Encoder, Features
from .rewards import reward_scale as checked_scale

__all__ = ["HupaiAEC", "MAX_HANDS", "RENDER_MODES", "check_seed"]

#: ``"human"`` prints a line after every step (render() returns None), ``"ansi"`` returns the line from render().
RENDER_MODES = (None, "human", "ansi")

#: The longest match an episode may be (a bound on what a caller can ask for).
MAX_HANDS = 10_000


def check_seed(seed: Any) -> int | None:
    """``seed`` as a plain int (a numpy integer accepted), or None; HupaiError for anything else."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 1 << 64:
        raise HupaiError(f"seed must be an int in 0..2**64-1, got {seed!r}")
    return int(seed)


class HupaiAEC(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A match of ``rules`` as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, rules: str | Rules = "guangdong", options: dict[str, Any] | None = None, *, hands: int = 1,
                 claim_window: str = "all", reward_scale: float | None = None,
                 render_mode: str | None = None, layout_of: HupaiAEC | None = None) -> None:
        super().__init__()
        self.rules = rules_module.get(rules, options) if isinstance(rules, str) else rules
        if type(claim_window) is not str or claim_window not in CLAIM_WINDOWS:  # refused here, not at reset()
            raise HupaiError(f"claim_window must be one of {', '.join(CLAIM_WINDOWS)}, got {claim_window!r}")
        #: What a payment is multiplied by to make a reward.
        self.reward_scale = checked_scale(self.rules.name, reward_scale)
        if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
            raise HupaiError(f"hands must be an int in 1..{MAX_HANDS}, got {hands!r}")
        if render_mode not in RENDER_MODES:
            raise HupaiError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.hands = hands
        self.claim_window = claim_window
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"hupai_{self.rules.name}_v0"}
        n = self.rules.num_players
        self.possible_agents = [f"seat_{seat}" for seat in range(n)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.action_layout: ActionSpace
        self.features: Features
        self.observation_spaces: dict[str, Any]
        self.action_spaces: dict[str, spaces.Discrete]
        if layout_of is not None and layout_of.rules is self.rules and layout_of.reward_scale == self.reward_scale:
            # Another table of the same rules (a vector environment's): its layout and spaces, built once.
            self.action_layout, self.features = layout_of.action_layout, layout_of.features
            self.observation_spaces, self.action_spaces = layout_of.observation_spaces, layout_of.action_spaces
        else:
            self.action_layout = ActionSpace(self.rules)
            self.features = Features(self.rules, self.action_layout, score_scale=self.reward_scale)
            self.observation_spaces = {agent: self.features.spaces() for agent in self.possible_agents}
            self.action_spaces = {agent: spaces.Discrete(self.action_layout.n) for agent in self.possible_agents}
        #: This table's encoder (its caches and its slots of arrays are its own, the layout is shared).
        self.encoder = Encoder(self.features)
        self._next_seed: np.random.Generator | None = None
        self.match: Match | None = None
        self.game: Game | None = None
        self._observer: tuple[Game, Observer] | None = None  # one per hand: it freezes the hand's fixed facts
        self.agents: list[str] = []  # none until reset()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episodes ---------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match from ``seed`` (a later ``reset()`` without one continues the sequence that seed began;
        the first without any draws from the OS)."""
        seed = check_seed(seed)
        if seed is not None:
            self._next_seed = np.random.default_rng(seed)
            match_seed = seed
        elif self._next_seed is not None:
            match_seed = int(self._next_seed.integers(0, 1 << 63))
        else:
            match_seed = secrets.randbits(64)
        self.match = Match(self.rules, seed=match_seed, claim_window=self.claim_window)
        self.game = self.match.new_game()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.game is not None
        seats = self.game.seats_to_act  # current.seats without building the whole Decision
        if seats:
            self.agent_selection = self.possible_agents[seats[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.match is None:
            raise HupaiError("reset() the environment first")
        game, observer, seat = self._viewer(agent)
        return self.encoder.encode_game(observer, game, seat, self.match.scores)

    def observation(self, agent: str) -> Any:
        """The :class:`~hupai.observation.Observation` of ``agent``'s seat now (what its features encode)."""
        game, observer, seat = self._viewer(agent)
        return observer.view(game, seat)  # observer(game)(seat), without the bound method and its call

    def seen(self, agent: str) -> tuple[Any, ...]:
        """:meth:`observation`'s fields (:meth:`Observer.seen <hupai.game.Observer.seen>`), without making it:
        what the features encode at every decision."""
        game, observer, seat = self._viewer(agent)
        return observer.seen(game, seat)

    def _viewer(self, agent: str) -> tuple[Game, Observer, int]:
        """The game, this hand's observer and ``agent``'s seat (HupaiError for no game or no such agent)."""
        game = self.game
        if game is None:
            raise HupaiError("reset() the environment first")
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise HupaiError(f"no agent {agent!r} in this environment (agents: {', '.join(self.possible_agents)})")
        kept = self._observer
        if kept is None or kept[0] is not game:
            kept = self._observer = (game, Observer(game))
        return game, kept[1], seat

    def observer(self, game: Game) -> Any:
        """``observe(seat)`` of ``game`` (one :class:`~hupai.game.Observer` per hand: it freezes
        the hand's fixed facts once)."""
        if self._observer is None or self._observer[0] is not game:
            self._observer = (game, Observer(game))
        return self._observer[1].observe

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self.agents:
            self._refuse()
        agent = self.agent_selection  # PettingZoo's own last(), without its call
        if not observe:
            seen = None
        else:
            # observe(agent) without its calls when this hand's observer is kept (every decision but a hand's
            # first); anything else (no observer yet, an agent_selection a caller changed) takes observe().
            game, kept, seat = self.game, self._observer, self._seat.get(agent)
            if kept is None or kept[0] is not game or seat is None or self.match is None:
                seen = self.observe(agent)
            else:
                seen = self.encoder.encode_game(kept[1], game, seat, self.match.scores)
        return (seen, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def _refuse(self) -> NoReturn:
        """HupaiError when no agent is live: before reset() and once every agent is done (PettingZoo's own step
        or last would fail with an AttributeError or a KeyError there)."""
        if self.game is None or self.match is None:
            raise HupaiError("reset() the environment first")
        raise HupaiError("the episode is over (every agent is done): reset() the environment")

    def step(self, action: Any) -> None:
        if not self.agents:  # before reset(), or after the end
            self._refuse()
        assert self.game is not None and self.match is not None
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            if action is not None:
                raise IllegalAction(f"{agent} is done: its only action is None (PettingZoo's dead step)")
            self._was_dead_step(action)
            return
        game = self.game
        chosen = self.encoder.action(action, game.legal_actions(self._seat[agent]))  # IllegalAction if masked
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        if any(rewards.values()) or len(rewards) != len(self.agents):  # else they are the zeros this step gives
            self.rewards = {name: 0.0 for name in self.agents}
        game.apply(chosen)
        flow = game._flow  # (Game.over and Game.seats_to_act read from it, without the properties' calls)
        if flow.table.phase == "over":
            self._end_hand()
            self._accumulate_rewards()
        else:
            infos = self.infos
            if any(infos.values()) or len(infos) != len(self.agents):  # else they are the empty ones it gives
                self.infos = {name: {} for name in self.agents}
            seats = flow.seats_to_act()  # _select(), without its call
            if seats:
                self.agent_selection = self.possible_agents[seats[0]]
        # Between hands every reward is zero: nothing to accumulate.
        if self.render_mode == "human":
            self.render()

    def _end_hand(self) -> None:
        """The hand is over: its payments as rewards (set in :attr:`rewards`), the match moved on, the next hand
        dealt or every agent terminated."""
        assert self.game is not None and self.match is not None
        result = self.game.result
        assert result is not None
        # A new dict, never the one step() kept from the last step (a checkpoint may hold it).
        rewards = {name: 0.0 for name in self.agents}
        for other, payment in enumerate(result.payments):
            rewards[self.possible_agents[other]] = payment * self.reward_scale
        self.rewards = rewards
        self.infos = {name: {"hand_over": True, "hand": self.match.hand_index,
                             "payments": list(result.payments)} for name in self.agents}
        self.match.record(self.game)
        if self.match.over or self.match.hand_index >= self.hands:
            self.terminations = {name: True for name in self.agents}
        else:
            self.game = self.match.new_game()
            self._select()

    def render(self) -> str | None:
        """A line saying where the hand stands: printed with ``render_mode="human"`` (None returned), else
        returned."""
        if self.game is None:
            return None
        seats = self.game.current.seats
        text = (f"{self.rules.name} hand {self.match.hand_index if self.match else 0}: {self.game.current.phase}, "
                f"seat(s) {list(seats)} to act, {len(self.game.events)} events")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
        self.match = None
        self.agents = []
