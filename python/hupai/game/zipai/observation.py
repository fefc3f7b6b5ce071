"""What one seat of a Wai Huzi hand may see: the :class:`~hupai.observation.Observation` the zipai flow gives.

``Observer(game)`` builds this observer for a zipai game (see :class:`~hupai.game.Observer`). It
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

from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from zlib import adler32

from ...jsonform import describe
from ...observation import MeldView, Observation, ResultView, WinView
from ..mahjong.observation import _PHASE_INDEX, AT_REST, GROUP_RECORDS, SIZES_GIVEN, Observer, _Draft
from ..state.zipai import mask_cards, mask_flags, menzi_triples

if TYPE_CHECKING:  # pragma: no cover
    from ..state.zipai import Group
    from ..view import GameView

__all__ = ["ZipaiObserver", "group_view"]


def group_view(seat: int, group: Group, whole: bool = False) -> MeldView:
    """A declared group as every seat sees it (``whole``: all cards face up, as in a won layout)."""
    down = group.type in ("wai", "liu") and not whole
    return MeldView(group.type, group.cards[:1] if down else group.cards, down,
                    -1 if group.source in (-1, seat) else group.source, False, group.taken)


#: The public facts' read-only mappings by the values they show (dead, offer, shen, shen shown): the same object
#: for the same values in every hand and every game, so that whoever keeps what it made of one by its identity (the
#: agent encoder, its float bytes) finds it again in the next hand too (a hand's own mappings made the encoder
#: encode each afresh, a dozen times a hand). At most a thousand or so sets of values (8 x 3 x 2 x 21 for the
#: built-in 神 options); bounded all the same, for a rules object whose ``shen`` option takes many values.
_PUBLIC: dict[tuple[Any, ...], Any] = {}
_PUBLIC_BOUND = 4096


@lru_cache(maxsize=4096)  # a memo of a pure function of small immutable values: a group is seen the same way
def _seen_group(seat: int, group: Group) -> MeldView:  # every time, and the views are rebuilt at every group made
    return group_view(seat, group)


class ZipaiObserver(Observer):
    """Builds observations of one Wai Huzi game (``Observer(game)`` returns one for a zipai game)."""

    __slots__ = ("_groups", "_groups_at", "_made", "_public", "_private", "_private_at",
                 "_piles", "_piles_at")

    def __init__(self, game: GameView, *, show_concealed_kongs: bool | None = None) -> None:
        super().__init__(game, show_concealed_kongs=show_concealed_kongs)
        self._forget(game.table)

    def _forget(self, table: Any) -> None:
        """Frozen views kept between decisions and rebuilt when what they show has moved: the groups (when a group
        is made) with the hand sizes at rest they give, the public extras (one mapping for each set of values),
        each seat's bans and locks (masks that only gain bits in a hand, so their sum says when), the piles
        (that only grow). ``table``: the table they are read from (a game given another table starts them afresh)."""
        self._table = table
        self._groups: tuple[tuple[MeldView, ...], ...] = ((), (), ())
        self._groups_at = -1
        self._made: list[tuple[Group, ...]] = [(), (), ()]  # the groups each seat's views show
        self._public = _PUBLIC  # by the values they show, shared by every hand (see _PUBLIC)
        self._private: list[Any] = [None] * 3
        self._private_at: list[int] = [-1] * 3
        self._piles: tuple[tuple[int, ...], ...] = ((), (), ())
        self._piles_at = -1

    def view(self, game: GameView, seat: int) -> Observation:
        obs: Any = _Draft(*self.seen(game, seat))
        obs.__class__ = Observation
        built: Observation = obs
        return built

    def seen(self, game: GameView, seat: int) -> tuple[Any, ...]:
        """:meth:`view`'s fields without the observation (:meth:`Observer.seen
        <hupai.game.mahjong.observation.Observer.seen>`)."""
        table: Any = game._flow.table  # Game.table without the property's call
        if type(seat) is not int or not 0 <= seat < 3:  # noqa: E721 (a bool is not a seat)
            from ...errors import HupaiError

            raise HupaiError(f"seat {describe(seat)} is not a seat of this 3-player game")
        phase = table.phase
        if phase == "turn":  # Game.current's answers for a turn and a claim, read directly (a test holds them equal)
            to_act: tuple[int, ...] = (table.turn_seat,)
            tile = -1
            source = table.turn_seat
        elif phase == "claim":
            answers = table.answers
            to_act = tuple(table.pending) if not answers else tuple([s for s in table.pending if s not in answers])
            tile = table.offer
            source = table.offer_from
        else:
            phase, to_act, tile, source = game._flow.current
        if self._table is not table:
            self._forget(table)
        if self._groups_at != table.calls:  # a group made: the views of the seats whose groups changed
            made = self._made
            views = list(self._groups)
            for s, groups in enumerate(table.groups):
                if made[s] is not groups:  # a seat's views stay the same objects while its groups do (the table
                    views[s] = tuple([_seen_group(s, g) for g in groups])  # makes a new tuple when they change)
                    made[s] = groups
            self._groups = tuple(views)
            self._groups_at = table.calls
            # WH-11: 19 cards at rest counting three a group (a 4-card group's fourth is the one more it allows),
            # and one more for the seat to discard
            self._at_rest = rest = tuple([self._hand_size - 3 * len(groups) for groups in table.groups])
            self._one_more = tuple([rest[:s] + (size + 1,) + rest[s + 1:] for s, size in enumerate(rest)])
        public = self._public_facts(table)
        chi_ban, peng_ban, menzi_ban, locked = (table.chi_ban[seat], table.peng_ban[seat], table.menzi_ban[seat],
                                                table.locked[seat])
        grown = chi_ban + peng_ban + menzi_ban + locked  # masks that only gain bits: their sum says when one grew
        private = self._private[seat]
        if self._private_at[seat] != grown:
            # freeze() of the sorted lists, built frozen (tuples of ints) at once: a mask decodes in bit order
            private = self._private[seat] = MappingProxyType({
                "chi_ban": mask_cards(chi_ban), "peng_ban": mask_cards(peng_ban),
                "menzi_ban": menzi_triples(menzi_ban), "locked": mask_cards(locked)})
            self._private_at[seat] = grown
        sizes = table.pile_sizes
        piled = sum(sizes)
        if self._piles_at != piled:  # a pile grew: it alone is copied (a seat's pile stays the same object)
            # (a pile that grew by one card, the common case, is its old view and that card: cheaper than a slice)
            self._piles = tuple([
                old if len(old) == size else old + (pile[size - 1],) if len(old) + 1 == size else tuple(pile[:size])
                for old, pile, size in zip(self._piles, table.piles, sizes, strict=True)])
            self._piles_at = piled
        legal = game._legal.get(seat) or game.legal_actions(seat)  # the game's cache read directly, as play() does
        if phase == "turn":
            sizes = self._one_more[to_act[0]]
        elif phase == "claim":
            sizes = self._at_rest
        else:  # counted, by one C call a hand (Adler-32's low half is 1 + the byte sum, as the mahjong observer does)
            sizes = tuple([(adler32(hand) & 0xFFFF) - 1 for hand in table.hands])
        return (seat, self._rules, self._options, phase, to_act, tile, source, self._dealer, self._round_wind,
                self._seat_winds, bytes(table.hands[seat]), -1, "", sizes, self._groups, self._piles,
                len(table.wall.tiles) - table.wall.head, public, legal,
                None if phase != "over" else self._result or self._zipai_result(game), private)

    def buffers(self, game: GameView, seat: int) -> tuple[Any, ...]:
        """:meth:`Observer.buffers <hupai.game.mahjong.observation.Observer.buffers>` of a Wai Huzi table: the
        records are its groups' (a 歪 or 溜 shows its one face-up card), the piles its pile buffers, and
        ``private`` the seat's masks ``(chi_ban, peng_ban, menzi_ban, locked)`` as the table keeps them
        (:func:`~hupai.game.state.zipai.mask_cards` and :func:`~hupai.game.state.zipai.menzi_triples` decode
        them into what :meth:`seen` shows)."""
        table: Any = game._flow.table
        if type(seat) is not int or not 0 <= seat < 3:  # noqa: E721 (a bool is not a seat)
            from ...errors import HupaiError

            raise HupaiError(f"seat {describe(seat)} is not a seat of this 3-player game")
        phase = table.phase
        sizes = None
        if phase == "turn":  # seen()'s answers, read the same way (a test holds them equal)
            to_act = 1 << table.turn_seat
            tile = -1
            source = mode = table.turn_seat
        elif phase == "claim":
            answers = table.answers
            to_act = 0
            for other in table.pending:
                if other not in answers:
                    to_act |= 1 << other
            tile = table.offer
            source = table.offer_from
            mode = AT_REST
        else:
            phase, seats, tile, source = game._flow.current
            to_act = 0
            for other in seats:
                to_act |= 1 << other
            mode = SIZES_GIVEN
            sizes = tuple([(adler32(hand) & 0xFFFF) - 1 for hand in table.hands])
        if self._table is not table:
            self._forget(table)
        public = self._public.get((table.dead, table.offer_kind, table.shen, table.shen_shown))  # _public_facts'
        if public is None:
            public = self._public_facts(table)
        # The private facts as the table keeps them, the masks (seen() shows them decoded): they grow at most
        # decisions, and the encoder reads masks by table look-ups.
        private = (table.chi_ban[seat], table.peng_ban[seat], table.menzi_ban[seat], table.locked[seat])
        fixed = self._fixed
        if fixed is None:
            fixed = self._fixed = (self._hand_size, GROUP_RECORDS, self._seat_winds)
        return (seat, -1, tile, len(table.wall.tiles) - table.wall.head, self._round_wind, self._dealer, source,
                _PHASE_INDEX[phase], to_act, mode, fixed, table.hands[seat], table.piles, table.pile_sizes,
                table.group_records, public, private, game._legal.get(seat) or game.legal_actions(seat), sizes)

    def _public_facts(self, table: Any) -> Any:
        """The table's public facts as a read-only mapping: one for each set of values a hand shows (a handful:
        the 死手 flags only gain seats, the offer goes back and forth), the same object whenever they recur, so
        whoever keeps what it made of one (the agent encoder, its float bytes) finds it again by identity."""
        public_key = (table.dead, table.offer_kind, table.shen, table.shen_shown)
        public = self._public.get(public_key)
        if public is None:
            if len(self._public) >= _PUBLIC_BOUND:
                self._public.clear()
            public = self._public[public_key] = MappingProxyType({
                "shen": table.shen, "shen_shown": table.shen_shown, "dead": mask_flags(table.dead),
                "offer": table.offer_kind})
        return public

    def _zipai_result(self, game: GameView) -> ResultView:
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
