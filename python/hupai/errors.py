"""Exception types. Every error hupai raises on purpose derives from :class:`HupaiError`."""

from __future__ import annotations

__all__ = ["HupaiError", "InvalidHand", "IllegalAction", "InvalidState"]


class HupaiError(Exception):
    """Base class of every error raised by hupai."""


class InvalidHand(HupaiError, ValueError):
    """A tile string, kind list or counts array that is not a valid hand (the message says what is wrong)."""


class IllegalAction(HupaiError, ValueError):
    """An action that is not legal in the current game state; the game is left exactly as it was."""


class InvalidState(HupaiError, ValueError):
    """A snapshot or log that :meth:`hupai.Game.from_snapshot` / :meth:`hupai.Game.replay` refuses: not exactly
    what :meth:`~hupai.Game.snapshot` / :meth:`~hupai.Game.to_json` write (the message names the field)."""
