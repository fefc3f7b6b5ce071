"""What a spectator may see: what every seat may know, and no more (:meth:`Game.spectator_view
<hupai.game.Game.spectator_view>`, :meth:`Game.spectator_events <hupai.game.Game.spectator_events>`).

A spectator is nobody at the table. Its view has the JSON shape of a seat's observation
(:meth:`hupai.observation.Observation.to_dict`, what the server sends a seat) with:

- ``"seat": null``, an empty ``hand``, no ``drawn`` tile (``null``, ``drawn_from`` ``""``), no
  ``legal_actions`` (``[]``), no ``private`` facts (Wai Huzi's bans and locks are each seat's own);
- ``tile``: in a turn the drawn tile is its drawer's, so ``null``; in a claim or rob window the offered tile,
  which every seat sees (a Wai Huzi card turned up from the stock is face up);
- ``melds``: every seat's melds as the *other* seats see them: a concealed kong face down where the rules lay
  it so (``rules.shows_concealed_kongs``), a 歪 or 溜 one card up (WH-9);
- the rest as every seat sees it: hand sizes, discards, the live wall's size (never its order), the rule
  system's public facts (``extras``), who is to act, the result once the hand is over (the winners' hands laid
  open, as every seat is shown them).

The event stream (:func:`spectator_events`) is a seat's (:meth:`Game.events_for <hupai.game.Game.events_for>`)
with every seat's dealt and drawn tiles masked, and every face-down concealed kong's kind too.

Decision taken here where the issue is silent: the view is built from a seat's own observation with that
seat's facts taken out, not by a second copy of the observers, so that it cannot drift from what the seats are
shown. It is plain JSON data (a dict), not an :class:`~hupai.observation.Observation`: that type's ``seat`` is
a seat, and nothing a bot is given may lack one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import HupaiError
from ..events import client_event
from ..jsonform import describe

if TYPE_CHECKING:  # pragma: no cover
    from .view import GameView

__all__ = ["spectator_view", "spectator_events"]


def spectator_view(game: GameView) -> dict[str, Any]:
    """The view of a spectator now, in the JSON form of a seat's observation (see the module docstring)."""
    table = game.table
    n = game.rules.num_players
    turn = getattr(table, "turn_seat", -1)
    # A seat whose turn it is not: its observation shows no drawn tile (its own facts are taken out below).
    watcher = next(seat for seat in range(n) if seat != turn)
    view = game.observation(watcher).to_dict()
    # The watcher's own facts out: its seat, its tiles, its draw, its choices, its private rule facts.
    view.update(seat=None, hand=[], drawn=None, drawn_from="", legal_actions=[])
    view.pop("private", None)
    if view["phase"] in ("turn", "predraw") and game.rules.family != "zipai":
        view["tile"] = None  # the drawn tile is its drawer's (the watcher is not the drawer: already null)
    if any(meld["concealed"] for meld in view["melds"][watcher]):
        # The watcher sees its own concealed kongs face up: show them as the next seat does.
        view["melds"][watcher] = game.observation((watcher + 1) % n).to_dict()["melds"][watcher]
    return view


def spectator_events(game: GameView, since: int = 0) -> list[dict[str, Any]]:
    """A spectator's event stream from index ``since`` on, in the clients' JSON contract
    (:func:`hupai.events.client_event`): every seat's dealt and drawn tiles ``null``, a face-down concealed
    kong without its kind. ``since`` beyond the end gives ``[]``."""
    if type(since) is not int or since < 0:  # noqa: E721
        raise HupaiError(f"since must be an int >= 0, got {describe(since)}")
    kinds = len(game.table.hands[0])
    return [client_event(event, kinds) for event in game._masked_events(-1)[since:]]
