"""Building a seat's :class:`~hupai.observation.Observation` from a game (what it shows: see that module).

:class:`Observer` reads the engine's state and copies what one seat may see into immutable values; nothing in
the result refers back to the game or its table. What never changes within a hand (the rules' name and
options, the seat winds) is frozen once per observer, and what changes (the meld views and hand sizes, the
discard piles, the rule system's public facts) is rebuilt only when the table says it moved, so one observer
serves a whole hand: a driver that asks at every decision (:func:`hupai.game.play`) keeps one, and so does
:meth:`Game.observation <hupai.game.Game.observation>` (the game holds it, see :meth:`Observer.kept`).

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
from dataclasses import fields, make_dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from zlib import adler32

from ..._core import pile_tuples
from ...errors import HupaiError
from ...hand import Meld
from ...jsonform import describe
from ...observation import MeldView, Observation, ResultView, WinView, freeze, thaw

if TYPE_CHECKING:  # pragma: no cover
    from ..result import HandResult
    from ..view import GameView

__all__ = ["AT_REST", "GROUP_RECORDS", "Observer", "PHASE_ORDER", "SHOW_KONGS", "SIZES_GIVEN", "as_observation",
           "observe"]

_NO_EXTRAS: MappingProxyType[str, Any] = MappingProxyType({})
#: The decision phases in the order :meth:`Observer.buffers` numbers them (hupai.env's one-hot order).
PHASE_ORDER = ("turn", "predraw", "claim", "rob", "over")
_PHASE_INDEX = {phase: index for index, phase in enumerate(PHASE_ORDER)}
#: :meth:`Observer.buffers`' hand-size mode for every seat at rest, and for sizes given with it.
AT_REST, SIZES_GIVEN = -1, -2
#: The flags of :meth:`Observer.buffers`' fixed facts (cpp/features.hpp TableState).
SHOW_KONGS, GROUP_RECORDS = 1, 2
# The hand sizes by (rules' hand size, each seat's meld count): (at rest, per seat: that seat with one tile more).
# A few dozen entries at most (0..4 melds a seat).
_SIZES: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}

# An Observation is built at every decision, and how it is built is most of its cost. A frozen dataclass's
# __init__ sets each field through object.__setattr__ (about 1,300 machine instructions a field); a plain
# slots dataclass's __init__ stores its slots directly, ten times cheaper. So the observer fills this mutable
# twin (the same slots, generated from Observation's own fields, so the two cannot drift apart) and then makes
# it an Observation by assigning its class: Python allows that only between identical layouts (and raises
# otherwise), and from then on the object is as frozen as any Observation.
_Draft = make_dataclass("_Draft", [(f.name, f.type) for f in fields(Observation)], slots=True)


class Observer:
    """Builds observations of one game: ``observer.observe(seat)`` (or ``observer(seat)``).
    ``show_concealed_kongs`` overrides the rule system's :attr:`~hupai.rules.Rules.shows_concealed_kongs`."""

    __slots__ = ("_game", "_table", "_rules", "_options", "_dealer", "_round_wind", "_seat_winds", "_show_kongs",
                 "_views", "_public_melds", "_own_melds", "_melds_at", "_hand_size", "_at_rest", "_one_more",
                 "_piles", "_piles_at", "_extras", "_result", "_fixed")

    def __new__(cls, game: GameView, *, show_concealed_kongs: bool | None = None) -> Observer:
        # Each family sees its own table: its flow names its observer (a zipai game gets the zipai observer),
        # whoever builds the Observer.
        observer: type[Observer] = game._flow.observer if cls is Observer else cls
        return super().__new__(observer)

    def __init__(self, game: GameView, *, show_concealed_kongs: bool | None = None) -> None:
        rules = game.rules
        self._game: GameView | None = game
        self._table = game.table  # the hand this observer shows (a game's table is dealt or restored once)
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
        # The hand sizes, which follow from the melds (rebuilt with them): the rules' hand size less three tiles
        # a meld (the invariant hupai.game.consistency checks of every table), and one more for the seat to act
        # in a turn or whose added kong awaits robbing (``_one_more[seat]``).
        self._hand_size: int = rules.hand_size
        self._at_rest: tuple[int, ...] = ()
        self._one_more: tuple[tuple[int, ...], ...] = ()
        # The discard piles as tuples (made from the table's pile buffers by one core call), copied again only when
        # a pile moved. Within a hand a pile changes only by a discard (one more in ``discards_made``) or by a claim
        # taking its last tile (one more ``calls``), and both counts only grow, so their sums name the piles'
        # contents. Every seat observing the same moment (a server showing each seat the table, a claim window's
        # seats) shares one copy.
        self._piles: tuple[tuple[int, ...], ...] = ()
        self._piles_at = -1
        # The rule system's public facts: (a copy of the source, its frozen form), rebuilt when they change.
        # The table's mapping itself is kept with them: the flow replaces it rather than change it
        # (MahjongFlow._apply_effects), so one identity test a decision says whether they changed, where comparing
        # Yunxiao's six facts with the copy cost more.
        self._extras: tuple[Any, Any, Mapping[str, Any]] = (None, {}, _NO_EXTRAS)
        self._result: ResultView | None = None
        self._fixed: tuple[Any, ...] | None = None  # buffers()' fixed facts of the hand, made when first asked

    @classmethod
    def kept(cls, game: GameView) -> Observer:
        """An observer for ``game`` to keep (:meth:`Game.observation <hupai.game.Game.observation>`): it holds no
        reference to the game, which hands itself to :meth:`view` at each call, so the two make no reference
        cycle (a game is freed as soon as it is dropped). ``view(game, seat)`` of any other game is wrong."""
        observer = cls(game)
        observer._game = None
        return observer

    def observe(self, seat: int) -> Observation:
        """The observation of ``seat`` now."""
        game = self._game
        if game is None:
            raise HupaiError("this observer is kept by its game: ask the game (Game.observation)")
        return self.view(game, seat)

    __call__ = observe

    def view(self, game: GameView, seat: int) -> Observation:
        """The observation of ``seat`` in ``game``, the game this observer was made for."""
        obs: Any = _Draft(*self.seen(game, seat))
        obs.__class__ = Observation
        built: Observation = obs
        return built

    def seen(self, game: GameView, seat: int) -> tuple[Any, ...]:
        """:meth:`view`'s fields, in :class:`~hupai.observation.Observation`'s order, without the observation
        (:func:`as_observation` makes it of them): what an agent environment encodes at every decision, which
        hands an observation out only when asked."""
        table = game._flow.table  # Game.table without the property's call
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
            # The seats asked and yet to answer, in the order asked (the pending dict's); while none has
            # answered (most windows: eligible seats, the first asked), its keys as they stand, without the
            # comprehension's function object and frame.
            to_act = tuple([s for s in table.pending if s not in answers]) if answers else tuple(table.pending)
            tile = table.last_discard
            source = table.discarder
        else:
            phase, to_act, tile, source = game._flow.current  # Game.current, without the property's call
        drawn = table.drawn if own else -1
        calls = table.calls
        if self._melds_at != calls:
            self._table_melds(table.melds, calls)
        own_melds = self._own_melds  # empty unless a seat has a face-down kong
        melds = own_melds.get(seat, self._public_melds) if own_melds else self._public_melds
        if phase == "turn":
            sizes = self._one_more[turn_seat]
        elif phase == "rob":
            sizes = self._one_more[source]
        elif phase == "over":
            # The hands as they end (a winner's included): Adler-32's low half is 1 + the sum of the bytes mod
            # 65521 (RFC 1950), so one C call per hand counts its tiles.
            sizes = tuple([(adler32(hand) & 0xFFFF) - 1 for hand in table.hands])
        else:
            sizes = self._at_rest
        # 1 + the discards made (Adler-32's low half, one C call: sum() makes an int of every byte) and the
        # calls above them (a hand has fewer than 1,024 discards).
        piles_at = (adler32(table.discards_made) & 0xFFFF) + (calls << 10)
        if piles_at != self._piles_at:  # a pile moved: copied afresh (at C speed)
            self._piles = pile_tuples(table.piles, table.discards_made)
            self._piles_at = piles_at
        piles = self._piles
        extras = self._extras
        if extras[0] is not table.extras:  # (the flow replaces the mapping when a fact changes: MahjongFlow)
            extras = self._facts(table.extras)
        wall = table.wall
        # The live wall (Wall.live without its call); the game's legal-action cache read directly, as play() does
        # (a busy game's cache refuses, as legal_actions does).
        legal = game._legal.get(seat) or game.legal_actions(seat)
        return (seat, self._rules, self._options, phase, to_act, tile, source, self._dealer, self._round_wind,
                self._seat_winds, bytes(table.hands[seat]), drawn, table.drawn_from if drawn >= 0 else "", sizes,
                melds, piles, wall.tail - wall.head, extras[2], legal,
                None if phase != "over" else self._result or self._result_view(game.result), _NO_EXTRAS)

    def _facts(self, source: Mapping[str, Any]) -> tuple[Any, Any, Mapping[str, Any]]:
        """The kept facts for the table's mapping ``source``, frozen again only if they differ from the copy kept
        (a restored table holds a new mapping of the same facts)."""
        extras = self._extras
        extras = self._extras = ((source, extras[1], extras[2]) if extras[1] == source
                                 else (source, thaw(frozen := freeze(source)), frozen))
        return extras

    def buffers(self, game: GameView, seat: int) -> tuple[Any, ...]:
        """What :meth:`seen` shows, as the table's own buffers and the few facts no buffer holds: what an agent
        environment's core encoder reads at every decision (:meth:`hupai.env.Encoder.encode_game`), nothing
        copied into tuples. ``(seat, drawn, tile, wall_left, round_wind, dealer, source, phase, to_act,
        sizes_mode, fixed, hand, piles, made, records, extras, private, legal, sizes)``:

        - ``phase``: its index in :data:`PHASE_ORDER`; ``to_act``: a bit per seat to act;
        - ``sizes_mode``: the seat whose hand holds one tile more than at rest, :data:`AT_REST`, or
          :data:`SIZES_GIVEN` with ``sizes`` every seat's count (None otherwise);
        - ``fixed``: the hand's fixed facts, one object for the hand: the hand size with no melds, the flags
          (:data:`SHOW_KONGS`: another seat's concealed kong shows its kind; :data:`GROUP_RECORDS`: the records
          are Wai Huzi's groups), the seat winds;
        - ``hand``: the seat's own counts (no other seat's); ``piles``, ``made`` and ``records``: every seat's
          discard buffers, their bytes in use and its meld records, all public.
        """
        table = game._flow.table
        if type(seat) is not int or not 0 <= seat < table.num_players:  # noqa: E721 (a bool is not a seat)
            raise HupaiError(f"seat {describe(seat)} is not a seat of this {table.num_players}-player game")
        phase = table.phase
        turn_seat = table.turn_seat
        own = turn_seat == seat
        sizes = None
        if phase == "turn" or phase == "predraw":  # seen()'s answers, read the same way (a test holds them equal)
            to_act = 1 << turn_seat
            tile = table.drawn if own else -1
            source = turn_seat
            mode = turn_seat if phase == "turn" else AT_REST
        elif phase == "claim":
            answers = table.answers
            to_act = 0
            for other in table.pending:
                if other not in answers:
                    to_act |= 1 << other
            tile = table.last_discard
            source = table.discarder
            mode = AT_REST
        else:
            phase, seats, tile, source = game._flow.current
            to_act = 0
            for other in seats:
                to_act |= 1 << other
            mode = source if phase == "rob" else AT_REST
            if phase == "over":
                mode = SIZES_GIVEN
                sizes = tuple([(adler32(hand) & 0xFFFF) - 1 for hand in table.hands])
        extras = self._extras
        if extras[0] is not table.extras:  # (the flow replaces the mapping when a fact changes: MahjongFlow)
            extras = self._facts(table.extras)
        wall = table.wall
        fixed = self._fixed
        if fixed is None:
            fixed = self._fixed = (self._hand_size, SHOW_KONGS if self._show_kongs else 0, self._seat_winds)
        return (seat, table.drawn if own else -1, tile, wall.tail - wall.head, self._round_wind, self._dealer,
                source, _PHASE_INDEX[phase], to_act, mode, fixed, table.hands[seat], table.piles,
                table.discards_made, table.meld_records, extras[2], _NO_EXTRAS,
                game._legal.get(seat) or game.legal_actions(seat), sizes)

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
                if cached is None or cached[0] is not meld:  # (a copied observer's keys are its original's ids)
                    # One view for both unless the kind is hidden from others: then the two lists below hold the
                    # same objects, and comparing them is an identity check per meld, not a dataclass __eq__.
                    view = MeldView.of(meld)
                    hidden = meld.concealed and not self._show_kongs
                    cached = views[id(meld)] = (meld, view, MeldView.of(meld, True) if hidden else view)
                shown.append(cached[1])
                seen.append(cached[2])
            public.append(tuple(seen))
            if shown != seen:
                own[seat] = tuple(shown)
        self._public_melds = everyone = tuple(public)
        self._own_melds = {seat: everyone[:seat] + (shown,) + everyone[seat + 1:] for seat, shown in own.items()}
        self._melds_at = calls
        # The hand sizes of these meld counts, made once per process for each (hand size, meld counts).
        key = (self._hand_size, *map(len, melds))
        sizes = _SIZES.get(key)
        if sizes is None:
            rest = tuple([self._hand_size - 3 * len(seat_melds) for seat_melds in melds])
            sizes = _SIZES[key] = (rest, tuple([rest[:seat] + (size + 1,) + rest[seat + 1:]
                                                for seat, size in enumerate(rest)]))
        self._at_rest, self._one_more = sizes

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


def as_observation(fields: tuple[Any, ...]) -> Observation:
    """The :class:`~hupai.observation.Observation` of :meth:`Observer.seen`'s fields (as :meth:`Observer.view`
    builds it)."""
    obs: Any = _Draft(*fields)
    obs.__class__ = Observation
    built: Observation = obs
    return built


def observe(game: GameView, seat: int, *, show_concealed_kongs: bool | None = None) -> Observation:
    """The observation of ``seat`` in ``game`` by a fresh :class:`Observer` (:meth:`Game.observation
    <hupai.game.Game.observation>` asks the one the game keeps)."""
    return Observer(game, show_concealed_kongs=show_concealed_kongs).observe(seat)
