"""The table engine (DESIGN §4): one hand as a state machine (:class:`Game`), matches (:class:`Match`), a seat's
observations of a game (:class:`Observer`)."""

from __future__ import annotations

from ..actions import Action
from ..events import Event
from .game import LOG_FORMAT, SNAPSHOT_FORMAT, Decision, Game
from .mahjong.observation import Observer
from .match import Match, play
from .result import HandResult, WinResult

__all__ = ["Action", "Decision", "Event", "Game", "HandResult", "LOG_FORMAT", "Match", "Observer",
           "SNAPSHOT_FORMAT", "WinResult", "play"]
