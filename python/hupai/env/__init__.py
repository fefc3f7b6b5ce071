"""Agent environments (PettingZoo and Gymnasium, the optional ``env`` extra).

- :func:`aec_env` (``rules``, ``**options``): a PettingZoo AEC environment of every rule system, the seats as
  agents (:class:`~hupai.env.aec.HupaiAEC`);
- :func:`gym_env` (``rules``, ``opponents="greedy"``, ``illegal_penalty=-1.0``): a Gymnasium single-agent
  environment, one seat against bots (:class:`~hupai.env.single.HupaiGym`);
- :func:`vector_env` (``rules``, ``num_envs``): N single-agent tables stepped together
  (:class:`~hupai.env.single.HupaiVectorEnv`);
- versioned names as PettingZoo's own environments have them: ``hupai.env.guangdong_v0.env()`` (and
  ``.gym_env()``, ``.vector_env()``), and Gymnasium ids registered on import: ``gymnasium.make("hupai/Guangdong-v0")``,
  ``gymnasium.make_vec("hupai/Guangdong-v0", num_envs=64, vectorization_mode="vector_entry_point")``;
- :class:`Features` and :class:`ActionSpace`: the observation arrays (from an ``Observation`` only) and the
  fixed action space, usable without PettingZoo or Gymnasium installed; :class:`Encoder`: one table's
  features at every decision, what stays the same between decisions encoded once (what the environments use).

Rewards are payments times ``reward_scale``, by default the rule system's :data:`REWARD_SCALES` entry, so that
a hand's reward is of order one in every system (``reward_scale=1.0``: the payments themselves).

See ``docs/agents.md`` for the observation keys and the action layout of each rule system.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..errors import missing_extra
from .actions import ActionSpace
from .features import Encoder, Features
from .rewards import REWARD_SCALES, reward_scale

if TYPE_CHECKING:  # pragma: no cover
    from .aec import HupaiAEC
    from .single import HupaiGym, HupaiVectorEnv

__all__ = ["aec_env", "gym_env", "vector_env", "ActionSpace", "Encoder", "Features", "REWARD_SCALES", "VERSIONED",
           "reward_scale", "guangdong_v0", "yunxiao_v0", "kawuxing_v0", "waihuzi_v0"]

def _need_extra() -> None:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as error:
        raise missing_extra("hupai.env (PettingZoo and Gymnasium)", "env") from error


def aec_env(rules: str = "guangdong", *, hands: int = 1, claim_window: str = "all",
            reward_scale: float | None = None, render_mode: str | None = None, **options: Any) -> HupaiAEC:
    """A PettingZoo AEC environment of ``rules`` with rule ``options`` (``hupai.rules.get``'s)."""
    _need_extra()
    from .aec import HupaiAEC

    return HupaiAEC(rules, options or None, hands=hands, claim_window=claim_window, reward_scale=reward_scale,
                    render_mode=render_mode)


def gym_env(rules: str = "guangdong", *, opponents: Any = "greedy", seat: int = 0, hands: int = 1,
            claim_window: str = "eligible", illegal_penalty: float | None = -1.0,
            reward_scale: float | None = None, render_mode: str | None = None, **options: Any) -> HupaiGym:
    """A Gymnasium environment: ``seat`` of ``rules`` against ``opponents`` (a masked-out action costs
    ``illegal_penalty``; None: it raises IllegalAction)."""
    _need_extra()
    from .single import HupaiGym

    return HupaiGym(rules, options or None, opponents=opponents, seat=seat, hands=hands,
                    claim_window=claim_window, illegal_penalty=illegal_penalty, reward_scale=reward_scale,
                    render_mode=render_mode)


def vector_env(rules: str = "guangdong", num_envs: int = 8, *, opponents: Any = "greedy", seat: int = 0,
               hands: int = 1, claim_window: str = "eligible", illegal_penalty: float | None = -1.0,
               reward_scale: float | None = None, **options: Any) -> HupaiVectorEnv:
    """``num_envs`` Gymnasium tables stepped at once (a ``gymnasium.vector.VectorEnv``)."""
    _need_extra()
    from .single import HupaiVectorEnv

    return HupaiVectorEnv(rules, num_envs, options=options or None, opponents=opponents, seat=seat, hands=hands,
                          claim_window=claim_window, illegal_penalty=illegal_penalty, reward_scale=reward_scale)


class VersionedSystem:
    """One rule system under a versioned name (PettingZoo's ``chess_v6`` style): ``env()`` (the AEC form),
    ``raw_env()`` (the same: hupai's AEC form needs no wrappers), ``gym_env()`` and ``vector_env()``, each
    taking the keywords of the function of that name. The version moves when the observation or action layout
    changes."""

    def __init__(self, rules: str, version: int) -> None:
        self.rules = rules
        self.version = version
        self.name = f"{rules}_v{version}"
        self.gym_id = f"hupai/{rules.capitalize()}-v{version}"

    def env(self, **kwargs: Any) -> HupaiAEC:
        return aec_env(self.rules, **kwargs)

    raw_env = env

    def gym_env(self, **kwargs: Any) -> HupaiGym:
        return gym_env(self.rules, **kwargs)

    def vector_env(self, num_envs: int = 8, **kwargs: Any) -> HupaiVectorEnv:
        return vector_env(self.rules, num_envs, **kwargs)

    def __repr__(self) -> str:
        return f"hupai.env.{self.name}"


guangdong_v0 = VersionedSystem("guangdong", 0)
yunxiao_v0 = VersionedSystem("yunxiao", 0)
kawuxing_v0 = VersionedSystem("kawuxing", 0)
waihuzi_v0 = VersionedSystem("waihuzi", 0)
#: Every versioned name, by name (``"guangdong_v0"``).
VERSIONED: Mapping[str, VersionedSystem] = MappingProxyType(
    {system.name: system for system in (guangdong_v0, yunxiao_v0, kawuxing_v0, waihuzi_v0)})


def _register() -> None:
    """The Gymnasium ids (``hupai/Guangdong-v0``, ...), when Gymnasium is installed."""
    try:
        import gymnasium
    except ImportError:
        return
    for system in VERSIONED.values():
        if system.gym_id not in gymnasium.registry:
            gymnasium.register(id=system.gym_id, entry_point="hupai.env:gym_env",
                               vector_entry_point="hupai.env:vector_env", kwargs={"rules": system.rules})


_register()
