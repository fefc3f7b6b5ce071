"""Exception types. Every error hupai raises on purpose derives from :class:`HupaiError`.

:class:`HupaiError` and :class:`InvalidHand` are created by the C++ core (``hupai._core``), which raises
InvalidHand itself without importing any hupai module; they are ordinary Python exception classes.
"""

from __future__ import annotations

from ._core import HupaiError, InvalidHand

__all__ = ["HupaiError", "InvalidHand", "IllegalAction", "InvalidState", "NotAWin"]


class IllegalAction(HupaiError, ValueError):
    """An action that is not legal in the current game state; the game is left exactly as it was."""


class InvalidState(HupaiError, ValueError):
    """A snapshot or log that :meth:`hupai.Game.from_snapshot` / :meth:`hupai.Game.replay` refuses: not exactly
    what :meth:`~hupai.Game.snapshot` / :meth:`~hupai.Game.to_json` write (the message names the field)."""


class NotAWin(HupaiError, ValueError):
    """A well-formed win context that is not a win under the rules asked (the hand is not complete, or the
    rules forbid this win: a discarded gold, YX-11; three golds on a discard, YX-18). Malformed input raises
    :class:`InvalidHand` instead."""


def missing_extra(what: str, extra: str) -> HupaiError:
    """The one-line error for a feature whose optional dependencies (the ``extra``) are not installed, with the
    install lines that work from a clone (the Makefile's venv, which reuses the C++ build) and from a wheel."""
    return HupaiError(f"{what} needs the {extra} extra: in a clone, make install (or .venv/bin/pip install "
                      f"--no-build-isolation -e '.[{extra}]'); from a wheel, pip install 'hupai[{extra}]'")
