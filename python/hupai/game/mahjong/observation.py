"""Building a seat's :class:`~hupai.observation.Observation` from a game (what it shows: see that module).

:class:`Observer` reads the engine's state and copies what one seat may see into immutable values; nothing in
the result refers back to the game or its table. What never changes within a hand (the rules' name and
options) is frozen once per observer, so a driver that asks at every decision (:func:`hupai.game.play`) keeps
one observer per game; :meth:`Game.observation <hupai.game.Game.observation>` builds a fresh one each call.

Decisions taken here where the specs are silent:

- **Concealed kongs.** Another seat's 暗杠 shows its kind only if the rule system says its players lay them
  with the kind face up (:attr:`hupai.rules.Rules.shows_concealed_kongs`: Guangdong/Cantonese tables do, two
  tiles face up; Yunxiao's and Kawuxing's are laid face down). ``Observer(..., show_concealed_kongs=...)``
  overrides it for a table that plays the other way (:meth:`Game.visible_events
  <hupai.game.Game.visible_events>` follows the rules' attribute). A seat always sees its own.
- **The end of a hand.** The result shows each winner's concealed tiles and all its melds (a winner lays its
  hand open, and the patterns scored say as much); the other seats' hands stay hidden, a drawn hand included.
- ``phase``, ``to_act`` and ``tile`` are the engine's :attr:`~hupai.game.Game.current`. A claim window that
  asks only the seats able to claim (``claim_window="eligible"``) therefore shows who can claim; a server that
  must not reveal it plays ``claim_window="all"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, fields, make_dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from zlib import adler32

from ...errors import HupaiError
from ...hand import Meld
from ...jsonform import describe
from ...observation import (
    DEFERRED,
    MeldView,
    Observation,
    ResultView,
    WinView,
    _Deferred,
    _Slots,
    freeze,
    thaw,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..result import HandResult
    from ..view import GameView

__all__ = ["Observer", "observe"]

_NO_EXTRAS: MappingProxyType[str, Any] = MappingProxyType({})

# An Observation is built at every decision, and how it is built is most of its cost. A frozen dataclass's
# __init__ sets each field through object.__setattr__ (about 1,300 machine instructions a field); a plain
# slots dataclass's __init__ stores its slots directly, ten times cheaper. So the observer fills this mutable
# twin (the same slots, generated from Observation's own fields, so the two cannot drift apart) and then makes
# it an Observation by assigning its class: Python allows that only between identical layouts (and raises
# otherwise), and from then on the object is as frozen as any Observation.
_Draft = make_dataclass("_Draft", [(f.name, f.type) for f in fields(Observation)], slots=True, bases=(_Slots,))
# The same with the deferred fields left out of __init__ (their slots unset), for a _Deferred observation.
_LaterDraft = make_dataclass("_LaterDraft", [(f.name, f.type, field(init=False)) if f.name in DEFERRED
                                             else (f.name, f.type) for f in fields(Observation)],
                             slots=True, bases=(_Slots,))


class Observer:
    """Builds observations of one game: ``observer.observe(seat)`` (or ``observer(seat)``).
    ``show_concealed_kongs`` overrides the rule system's :attr:`~hupai.rules.Rules.shows_concealed_kongs`."""

    __slots__ = ("_game", "_rules", "_options", "_dealer", "_round_wind", "_seat_winds", "_show_kongs", "_views",
                 "_public_melds", "_own_melds", "_melds_at", "_extras", "_result", "_later")

    def __new__(cls, game: GameView, *, show_concealed_kongs: bool | None = None) -> Observer:
        # Each family sees its own table: its flow names its observer (a zipai game gets the zipai observer),
        # whoever builds the Observer.
        observer: type[Observer] = game._flow.observer if cls is Observer else cls
        return super().__new__(observer)

    def __init__(self, game: GameView, *, show_concealed_kongs: bool | None = None) -> None:
        rules = game.rules
        self._game = game
        self._rules = rules.name
        self._options = freeze(rules.options_dict())
        table = game.table  # the facts a hand is dealt with, fixed until it ends
        self._dealer = table.dealer
        self._round_wind = table.round_wind
        self._seat_winds = tuple(table.seat_winds)
        self._show_kongs = (getattr(rules, "shows_concealed_kongs", False) if show_concealed_kongs is None
                            else show_concealed_kongs)
        # Meld views by meld identity (melds are immutable and kept by the table for the whole hand, so an id
        # is not reused while the meld is alive; the meld is kept here too, which guarantees it).
        self._views: dict[int, tuple[Meld, MeldView, MeldView]] = {}
        # The meld views as other seats see them, and as a seat with a hidden kong sees them itself; rebuilt
        # when the table's meld count moves (every meld made or replaced, a 补杠, counts one: ``table.calls``).
        self._public_melds: tuple[tuple[MeldView, ...], ...] = ()
        self._own_melds: dict[int, tuple[tuple[MeldView, ...], ...]] = {}
        self._melds_at = -1
        # The rule system's public facts: (a copy of the source, its frozen form), rebuilt when they change.
        self._extras: tuple[Any, Mapping[str, Any]] = ({}, _NO_EXTRAS)
        self._result: ResultView | None = None
        # What a deferred field is derived from besides the observation's own fields (_Deferred: the rules' hand
        # size, fixed for the game).
        self._later = getattr(rules, "hand_size", 0)

    def observe(self, seat: int) -> Observation:
        """The observation of ``seat`` now."""
        game = self._game
        table = game.table
        if type(seat) is not int or not 0 <= seat < table.num_players:  # noqa: E721 (a bool is not a seat)
            raise HupaiError(f"seat {describe(seat)} is not a seat of this {table.num_players}-player game")
        phase = table.phase
        turn_seat = table.turn_seat
        own = turn_seat == seat
        if phase == "turn" or phase == "predraw":
            # Game.current's answer for a turn, read directly (the common case; a test holds the two equal).
            to_act: tuple[int, ...] = (turn_seat,)
            tile = table.drawn if own else -1  # the drawn tile is its drawer's
            source = turn_seat
        elif phase == "claim":  # Game.current's answer for a claim window, read directly as well
            answers = table.answers
            to_act = tuple([s for s in table.pending if s not in answers])
            tile = table.last_discard
            source = table.discarder
        else:
            phase, to_act, tile, source = game._flow.current  # Game.current, without the property's call
        drawn = table.drawn if own else -1
        if self._melds_at != table.calls:
            self._table_melds(table.melds, table.calls)
        own_melds = self._own_melds  # empty unless a seat has a face-down kong
        melds = own_melds.get(seat, self._public_melds) if own_melds else self._public_melds
        extras = self._extras
        if extras[0] != table.extras:
            frozen = freeze(table.extras)
            extras = self._extras = (thaw(frozen), frozen)
        wall = table.wall
        # The live wall (Wall.live without its call); the game's legal-action cache read directly, as play() does
        # (a busy game's cache refuses, as legal_actions does).
        legal = game._legal.get(seat) or game.legal_actions(seat)
        obs: Any
        if phase != "over":
            # The fields a bot seldom reads (DEFERRED: the hand sizes) are derived when first read, from this
            # observation's own fields and the hand size (_Deferred); nothing of the table is kept for them.
            obs = _LaterDraft(
                seat, self._rules, self._options, phase, to_act, tile, source, self._dealer, self._round_wind,
                self._seat_winds, bytes(table.hands[seat]), drawn, table.drawn_from if drawn >= 0 else "", melds,
                tuple(map(tuple, table.discards)), wall.tail - wall.head, extras[1], legal, None, _NO_EXTRAS)
            obs._later = self._later
            obs.__class__ = _Deferred
        else:
            hands = table.hands
            obs = _Draft(
                seat, self._rules, self._options, phase, to_act, tile, source, self._dealer, self._round_wind,
                self._seat_winds, bytes(hands[seat]), drawn, table.drawn_from if drawn >= 0 else "",
                # Hand sizes: Adler-32's low half is 1 + the sum of the bytes mod 65521 (RFC 1950), so one C call
                # per hand counts its tiles; sum() iterates the 34 counts in Python objects, at twice the cost.
                tuple([(adler32(hand) & 0xFFFF) - 1 for hand in hands]), melds, tuple(map(tuple, table.discards)),
                wall.tail - wall.head, extras[1], legal, self._result or self._result_view(game.result), _NO_EXTRAS)
            obs.__class__ = Observation
        built: Observation = obs
        return built

    __call__ = observe

    def _table_melds(self, melds: list[list[Meld]], calls: int) -> None:
        """Rebuild the meld views after a meld was made: as every seat sees them, and for each seat with a
        hidden kong, as that seat sees them (its own kongs shown)."""
        views = self._views
        public = []
        own: dict[int, tuple[MeldView, ...]] = {}
        for seat, seat_melds in enumerate(melds):
            shown = []
            seen = []
            for meld in seat_melds:
                cached = views.get(id(meld))
                if cached is None:
                    hidden = meld.concealed and not self._show_kongs
                    cached = views[id(meld)] = (meld, MeldView.of(meld), MeldView.of(meld, hidden))
                shown.append(cached[1])
                seen.append(cached[2])
            public.append(tuple(seen))
            if shown != seen:
                own[seat] = tuple(shown)
        self._public_melds = everyone = tuple(public)
        self._own_melds = {seat: everyone[:seat] + (shown,) + everyone[seat + 1:] for seat, shown in own.items()}
        self._melds_at = calls

    def _result_view(self, result: HandResult | None) -> ResultView:
        assert result is not None  # the phase is "over"
        wins = tuple(
            WinView(w.seat, w.tile, w.source, -1 if w.discarder is None else w.discarder,
                    -1 if w.context.liable is None else w.context.liable,
                    tuple((p.name, p.value) for p in w.score.patterns), w.score.value, tuple(w.score.payments),
                    tuple(sorted(w.context.concealed)),
                    tuple(MeldView.of(m) for m in w.context.melds if isinstance(m, Meld)),  # zipai: its own observer
                    w.score.reading)
            for w in result.wins)
        self._result = ResultView(tuple(result.winners), wins, tuple(result.payments), result.next_dealer,
                                  result.drawn)
        return self._result


def observe(game: GameView, seat: int, *, show_concealed_kongs: bool | None = None) -> Observation:
    """The observation of ``seat`` in ``game`` (one call; a driver asking repeatedly keeps an
    :class:`Observer`)."""
    return Observer(game, show_concealed_kongs=show_concealed_kongs).observe(seat)
