"""What one seat may see (mjx's Observation): public table facts plus its own concealed tiles.

Hidden from an observation: other seats' concealed tiles (only their counts show) and their drawn tiles, and
the wall's order (only how many tiles are left). Rule-specific public facts (a flipped gold, 亮倒 hands, 游金
levels) are in ``table.extras`` and shown as ``extras``; a rule system keeps private facts out of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import meld_to_json

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["observe"]


def observe(game: Game, seat: int) -> dict[str, Any]:
    """The observation of ``seat`` as plain JSON data (see the module docstring)."""
    table = game.table
    n = table.num_players
    if not 0 <= seat < n:
        from ..errors import HupaiError
        raise HupaiError(f"seat {seat} is not a seat of this {n}-player game")
    decision = game.current
    hand = table.hands[seat]
    own_drawn = table.drawn if table.turn_seat == seat else -1
    result = game.result
    return {
        "seat": seat,
        "rules": game.rules.name,
        "phase": decision.phase,
        "to_act": list(decision.seats),
        "tile": decision.tile if decision.phase != "turn" or decision.seats == (seat,) else -1,
        "source": decision.source,
        "dealer": table.dealer,
        "round_wind": table.round_wind,
        "seat_winds": list(table.seat_winds),
        "hand": [kind for kind in range(34) for _ in range(hand[kind])],
        "drawn": own_drawn,
        "hand_sizes": [sum(h) for h in table.hands],
        "melds": [[meld_to_json(m) for m in ms] for ms in table.melds],
        "discards": [list(d) for d in table.discards],
        "wall_left": table.wall.live,
        "extras": dict(table.extras),
        "legal_actions": [a.to_json() for a in game.legal_actions(seat)],
        "result": None if result is None else result.to_json(),
    }
