"""What the observers (:mod:`.mahjong.observation`, :mod:`.zipai.observation`) and the spectator view
(:mod:`.spectator`) read of a game: :class:`GameView`, the members of :class:`~hupai.game.Game` they use.

The shell builds observations and spectator views by calling into those modules, so they name the game
through this protocol rather than import the shell; they read its state, its legal-action cache and its flow,
and change nothing.
"""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..events import Event
from ..observation import Observation
from ..rules.base import Rules
from .flow import Flow
from .result import HandResult
from .state.table import Table

__all__ = ["GameView"]


class GameView(Protocol):
    """The members of a :class:`~hupai.game.Game` that observers and the spectator view read."""

    @property
    def rules(self) -> Rules: ...
    @property
    def table(self) -> Table: ...
    @property
    def result(self) -> HandResult | None: ...
    @property
    def _flow(self) -> Flow: ...  # its current decision, read without the shell's property call
    @property
    def _legal(self) -> dict[int, tuple[Action, ...]]: ...  # the legal actions the shell already knows, by seat
    def legal_actions(self, seat: int) -> tuple[Action, ...]: ...
    def observation(self, seat: int) -> Observation: ...
    def _masked_events(self, seat: int) -> list[Event]: ...
