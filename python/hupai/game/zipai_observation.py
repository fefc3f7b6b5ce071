"""What one seat of a Wai Huzi hand may see: the :class:`~hupai.observation.Observation` the zipai flow gives.

``Observer(game)`` builds this observer for a zipai game (see :class:`~hupai.game.observation.Observer`). It
shows, in the shared fields:

- ``counts``: the seat's own 20 card counts (``hand``: the kinds); ``hand_sizes``: every seat's count;
- ``melds``: every seat's declared groups as :class:`~hupai.observation.MeldView` with ``type`` ``"wai"``,
  ``"peng"``, ``"liu"``, ``"piao"`` or ``"chi"``: a 歪 and a 溜 lie one card up and the rest down (WH-9), so
  their ``tiles`` hold the one face-up card and ``concealed`` is True; a 碰, 飘 or 吃 shows all its cards.
  ``claimed_from`` is the seat whose card it took (-1: its own), ``claimed_tile`` that card;
- ``discards``: the piles (discards and turned-up cards nobody took); ``wall_left``: the stock count;
- ``phase``/``to_act``/``tile``/``source``: the offered card is face up (a turned-up card too), so every seat
  sees it;
- ``extras`` (public): ``shen`` (``"odd"``/``"even"``), ``shen_shown`` (the card shown for it, -1 if the option
  fixed it), ``dead`` (the 死手 flags, WH-27: shown to all), ``offer`` (``"draw"``, ``"discard"`` or ``""``);
- ``private`` (only the seat's own): ``chi_ban``, ``peng_ban``, ``menzi_ban`` (``[low, high, card]``) and
  ``locked`` (WH-21..26).

Never shown: another seat's hand, the stock's order, another seat's bans (they follow from its passes, which
the ``"all"`` claim window keeps from showing), the cards under a 歪 or 溜 beyond what WH-9 puts face up (the
same value; the layout shows them whole once the hand is won).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..jsonform import describe
from ..observation import MeldView, Observation, ResultView, WinView
from .observation import Observer, _Draft

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game
    from .zipai_state import Group

__all__ = ["ZipaiObserver", "group_view"]


def group_view(seat: int, group: Group, whole: bool = False) -> MeldView:
    """A declared group as every seat sees it (``whole``: all cards face up, as in a won layout)."""
    down = group.type in ("wai", "liu") and not whole
    return MeldView(group.type, group.cards[:1] if down else group.cards, down,
                    -1 if group.source in (-1, seat) else group.source, False, group.taken)


class ZipaiObserver(Observer):
    """Builds observations of one Wai Huzi game (``Observer(game)`` returns one for a zipai game)."""

    __slots__ = ("_groups", "_groups_at")

    def __init__(self, game: Game, *, show_concealed_kongs: bool | None = None) -> None:
        super().__init__(game, show_concealed_kongs=show_concealed_kongs)
        self._groups: tuple[tuple[MeldView, ...], ...] = ()
        self._groups_at = -1

    def observe(self, seat: int) -> Observation:
        game = self._game
        table: Any = game.table
        if type(seat) is not int or not 0 <= seat < 3:  # noqa: E721 (a bool is not a seat)
            from ..errors import HupaiError

            raise HupaiError(f"seat {describe(seat)} is not a seat of this 3-player game")
        phase, to_act, tile, source = game.current
        if self._groups_at != table.calls:
            self._groups = tuple(tuple(group_view(s, g) for g in groups) for s, groups in enumerate(table.groups))
            self._groups_at = table.calls
        extras = MappingProxyType({"shen": table.shen, "shen_shown": table.shen_shown, "dead": tuple(table.dead),
                                   "offer": table.offer_kind})
        # freeze() of the sorted lists, built frozen (tuples of ints) at once: this runs at every decision
        private = MappingProxyType({"chi_ban": tuple(sorted(table.chi_ban[seat])),
                                    "peng_ban": tuple(sorted(table.peng_ban[seat])),
                                    "menzi_ban": tuple(sorted(table.menzi_ban[seat])),
                                    "locked": tuple(sorted(table.locked[seat]))})
        obs: Any = _Draft(
            seat, self._rules, self._options, phase, to_act, tile, source, self._dealer, self._round_wind,
            self._seat_winds, bytes(table.hands[seat]), -1, "", tuple(map(sum, table.hands)), self._groups,
            tuple(map(tuple, table.discards)), len(table.wall.tiles) - table.wall.head, extras,
            game.legal_actions(seat), None if phase != "over" else self._result or self._zipai_result(game),
            private)
        obs.__class__ = Observation
        built: Observation = obs
        return built

    __call__ = observe

    def _zipai_result(self, game: Game) -> ResultView:
        result = game.result
        assert result is not None  # the phase is "over"
        table: Any = game.table
        wins = tuple(
            WinView(w.seat, w.tile, w.source, -1 if w.discarder is None else w.discarder, -1,
                    tuple((p.name, p.value) for p in w.score.patterns), w.score.value, tuple(w.score.payments),
                    tuple(sorted(w.context.concealed)),
                    tuple(group_view(w.seat, g, whole=True) for g in table.groups[w.seat]))
            for w in result.wins)
        self._result = ResultView(tuple(result.winners), wins, tuple(result.payments), result.next_dealer,
                                  result.drawn)
        return self._result
