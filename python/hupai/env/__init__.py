"""Agent environments (PettingZoo and Gymnasium, the optional ``env`` extra).

- :func:`aec_env` (``rules``, ``**options``): a PettingZoo AEC environment of every rule system, the seats as
  agents (:class:`~hupai.env.aec.HupaiAEC`);
- :func:`gym_env` (``rules``, ``opponents="greedy"``, ``illegal_penalty=-1.0``): a Gymnasium single-agent
  environment, one seat against bots (:class:`~hupai.env.single.HupaiGym`);
- :func:`vector_env` (``rules``, ``num_envs``): N single-agent tables stepped together
  (:class:`~hupai.env.single.HupaiVectorEnv`);
- :class:`Features` and :class:`ActionSpace`: the observation arrays (from an ``Observation`` only) and the
  fixed action space, usable without PettingZoo or Gymnasium installed.

See ``docs/agents.md`` for the observation keys and the action layout of each rule system.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import missing_extra
from .actions import ActionSpace
from .features import Features

if TYPE_CHECKING:  # pragma: no cover
    from .aec import HupaiAEC
    from .single import HupaiGym, HupaiVectorEnv

__all__ = ["aec_env", "gym_env", "vector_env", "ActionSpace", "Features"]


def _need_extra() -> None:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as error:
        raise missing_extra("hupai.env (PettingZoo and Gymnasium)", "env") from error


def aec_env(rules: str = "guangdong", *, hands: int = 1, claim_window: str = "all",
            render_mode: str | None = None, **options: Any) -> HupaiAEC:
    """A PettingZoo AEC environment of ``rules`` with rule ``options`` (``hupai.rules.get``'s)."""
    _need_extra()
    from .aec import HupaiAEC

    return HupaiAEC(rules, options or None, hands=hands, claim_window=claim_window, render_mode=render_mode)


def gym_env(rules: str = "guangdong", *, opponents: Any = "greedy", seat: int = 0, hands: int = 1,
            claim_window: str = "all", illegal_penalty: float | None = -1.0, render_mode: str | None = None,
            **options: Any) -> HupaiGym:
    """A Gymnasium environment: ``seat`` of ``rules`` against ``opponents`` (a masked-out action costs
    ``illegal_penalty``; None: it raises IllegalAction)."""
    _need_extra()
    from .single import HupaiGym

    return HupaiGym(rules, options or None, opponents=opponents, seat=seat, hands=hands,
                    claim_window=claim_window, illegal_penalty=illegal_penalty, render_mode=render_mode)


def vector_env(rules: str = "guangdong", num_envs: int = 8, *, opponents: Any = "greedy", seat: int = 0,
               hands: int = 1, claim_window: str = "all", illegal_penalty: float | None = -1.0,
               **options: Any) -> HupaiVectorEnv:
    """``num_envs`` Gymnasium tables stepped at once (a ``gymnasium.vector.VectorEnv``)."""
    _need_extra()
    from .single import HupaiVectorEnv

    return HupaiVectorEnv(rules, num_envs, options=options or None, opponents=opponents, seat=seat, hands=hands,
                          claim_window=claim_window, illegal_penalty=illegal_penalty)
