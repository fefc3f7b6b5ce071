"""The outcome of a hand: who won, how, what it was worth, who pays, who deals next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..events import Event, EventLog
from ..jsonform import json_text
from ..scoring import ScoreResult, WinContext

__all__ = ["WinResult", "HandResult", "close_hand"]


@dataclass(frozen=True)
class WinResult:
    """One winner's win: the tile, where it came from, the facts scored and the score."""

    seat: int
    tile: int
    source: str                 # "wall", "replacement", "discard", "robbed_kong", "dealt", or a rule's own
    discarder: int | None
    context: WinContext
    score: ScoreResult

    def to_log(self) -> dict[str, Any]:
        """The form a game log records (format 1, unchanged so recorded games replay byte for byte)."""
        return {
            "seat": self.seat, "tile": self.tile, "source": self.source,
            "discarder": -1 if self.discarder is None else self.discarder,
            "liable": -1 if self.context.liable is None else self.context.liable,
            "patterns": [[p.name, p.value] for p in self.score.patterns],
            "value": self.score.value, "payments": list(self.score.payments),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The log's form plus the whole score (:meth:`ScoreResult.to_dict`: each pattern's Chinese name and rule
        id, the reading, and the system's details such as Yunxiao's scoring row and event, YX-43)."""
        return {**self.to_log(), "score": self.score.to_dict()}


@dataclass(frozen=True)
class HandResult:
    """``winners`` in turn order from the tile's source; ``payments`` per seat (sum zero, kong money
    included); ``drawn`` for a hand that ended without a win (流局: GD-30, no payments)."""

    winners: tuple[int, ...]
    wins: tuple[WinResult, ...]
    payments: tuple[int, ...]
    next_dealer: int
    drawn: bool

    @property
    def patterns(self) -> dict[int, tuple[str, ...]]:
        """Pattern names per winner."""
        return {w.seat: w.score.pattern_names for w in self.wins}

    @property
    def points(self) -> dict[int, int]:
        """The hand value per winner (番 after the cap for Guangdong)."""
        return {w.seat: w.score.value for w in self.wins}

    def end_event(self) -> Event:
        """The last event of a hand, whichever family's flow ends it."""
        return Event("end", -1, -1, tuple(self.payments), str(self.next_dealer))

    def to_log(self) -> dict[str, Any]:
        """The form a game log records (format 1)."""
        return {
            "winners": list(self.winners), "wins": [w.to_log() for w in self.wins],
            "payments": list(self.payments), "next_dealer": self.next_dealer, "drawn": self.drawn,
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Every fact of the result, each win's full score included (Yunxiao's row and event: YX-43)."""
        return {**self.to_log(), "wins": [w.to_dict() for w in self.wins]}


def close_hand(table: Any, events: EventLog, result: HandResult) -> None:
    """End a hand on ``table`` (either family's: it has ``phase``, ``pending`` and ``answers``): no window stays
    open, and the result's end event closes the event list. The one place both flows end a hand."""
    table.phase = "over"
    table.pending = {}
    table.answers = {}
    events.add("end", -1, -1, result.payments, str(result.next_dealer))  # result.end_event()
