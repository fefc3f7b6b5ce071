"""The server's wire format: JSON to and from actions and observations, in one place.

Everything a client sends or receives about the game goes through these functions. They speak the versioned JSON
contract (schema version 2, :mod:`hupai.jsonform`): an action is :meth:`hupai.actions.Action.to_dict`'s dict
(tiles in notation; kinds accepted from a client), an observation :meth:`hupai.observation.Observation.to_dict`'s
(the browser page turns its tiles into kinds as it arrives, ``static/table.js``).

A client never names its seat: the seat is the one its token opened. An action that names another seat is
refused here, before the engine sees it.
"""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..errors import HupaiError
from ..rules.base import Rules

__all__ = ["WireError", "action_from_wire", "action_to_wire", "observation_to_wire", "tile_faces"]


class WireError(HupaiError):
    """A message that is not what the wire format allows; ``code`` says which kind of refusal it is."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def action_from_wire(data: Any, seat: int) -> Action:
    """The action a client sent for ``seat`` (its token's): the shape is checked here, legality by the game."""
    if not isinstance(data, dict):
        raise WireError("malformed", "an action is a JSON object")
    if "seat" in data and data["seat"] != seat:
        raise WireError("forbidden", f"this token plays seat {seat}, not {data['seat']!r}")
    try:
        return Action.from_dict({**data, "seat": seat})
    except HupaiError as error:
        raise WireError("malformed", str(error)) from None


def action_to_wire(action: Action) -> dict[str, Any]:
    return action.to_dict()


def observation_to_wire(observation: Any) -> dict[str, Any]:
    """An observation (any rule family's: each has ``to_dict``) as plain JSON data."""
    data: dict[str, Any] = observation.to_dict()
    return data


def tile_faces(rules: Rules) -> list[list[str]]:
    """How the browser draws each tile kind of ``rules``: ``[glyph, label]``, the Unicode mahjong tile (or the
    zipai card's character) and its notation (``5m``, ``d10``), shown under it: readable where no font has
    the glyph."""
    if rules.family == "zipai":
        from ..zipai.cards import NUM_KINDS, card_name
        return [[card_name(kind, "chinese"), card_name(kind)] for kind in range(NUM_KINDS)]
    from ..tiles import NUM_KINDS as MAHJONG_KINDS
    from ..tiles import format_tiles
    return [[format_tiles([kind], style="unicode"), format_tiles([kind])] for kind in range(MAHJONG_KINDS)]
