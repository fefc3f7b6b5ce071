"""歪胡子 Wai Huzi: the rule object (``hupai.rules.get("waihuzi")``), over :mod:`.scoring`.

Wai Huzi is a zipai game (``family = "zipai"``): the engine hosts it with its own flow (``game/zipai/flow.py``), which
asks this object what the spec decides and runs the turns itself. It subclasses the mahjong-shaped
:class:`~hupai.rules.Rules` so that the shell takes it like any rule system (``isinstance``, ``family``,
``num_players``, ``tiles``, ``options_dict``, ``name``); the mahjong hooks (claims, kongs, 漏胡, ``win_forms``)
are never asked by the zipai flow and are left as they are.

What it answers:

- WH-1, WH-3 (:meth:`tiles`, ``num_players``): 80 cards, kinds 0..19 four times; three players.
- WH-5 (:func:`~.scoring.shen_of`, :func:`~.scoring.shenyao`): the session 神 from a shown card; the ``shen``
  option fixes it, the house rule ``shen_shown`` says which card is shown (the flow reads it). WH-6, WH-46
  (:meth:`dealer_after`): who deals next.
- WH-17 (:data:`PRIORITY`): the claim classes, first class first; a single winner per card.
- WH-28..44 (:meth:`check`, :meth:`score`): is a :class:`~hupai.scoring.WinContext` a legal win, and its score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...scoring import ScoreResult, WinContext
from ...zipai import ALL_CARDS, Declared, card_name
from ..base import Rules
from ..facts import Fact, seat_label, seat_values, tile_of
from ..patterns import names_of
from .house import best_house_layout
from .options import WaihuziOptions
from .patterns import MINGTANG
from .scoring import NUM_PLAYERS, USED_FIELDS, best_layout, check_context, score_win

__all__ = ["WaihuziRules", "PRIORITY"]

#: WH-17: the claim classes on an offered card, higher first: 溜/飘/歪, then 胡, then 碰, then 吃; within a class
#: the seat first in turn order (from the drawer for a drawn card, from the discarder's 下家 for a discard).
PRIORITY: Mapping[str, int] = {"liu": 3, "piao": 3, "wai": 3, "win": 2, "peng": 1, "chi": 0}

_NAMES = names_of(MINGTANG)
_PARITY = {"odd": "单神 odd (1, 3, 5, 7, 9)", "even": "双神 even (2, 4, 6, 8, 10)"}
_OFFER = {"draw": "turned up from the stock", "discard": "discarded by a player"}


#: Option sets already checked, by their items with each value's type (1, 1.0 and True stay apart), with their logged
#: form: a match fixes its 神 after its first hand by making new rules (hupai.game.match), so an ``aec_env`` or
#: ``gym_env`` episode of one hand makes them at every reset, and the checks give the same answer each time. The
#: options are frozen, so rules share them. At most _CHECKED_SIZE sets (a caller may try many).
_CHECKED: dict[tuple[tuple[str, type, Any], ...], tuple[WaihuziOptions, dict[str, Any]]] = {}
_CHECKED_SIZE = 256


class WaihuziRules(Rules):
    """Wai Huzi (``rules/waihuzi.md``). Build with ``hupai.rules.get("waihuzi", **options)``."""

    name: ClassVar[str] = "waihuzi"
    pattern_unit: ClassVar[str] = "×"  # WH-35: 名堂 multiply
    family: ClassVar[str] = "zipai"
    num_kinds: ClassVar[int] = 20  # WH-1: 小一..小十, 大壹..大拾
    num_players = NUM_PLAYERS  # WH-3
    hand_size = 19  # WH-4: the others 19, the dealer 20
    multiple_winners = False  # WH-17: a single winner per card
    louhu = None  # the spec has no 漏胡; its bans are 臭牌 and 死手 (WH-21..27), kept by the flow
    #: The WinContext fields a Wai Huzi win reads; its own check refuses the others (.scoring.USED_FIELDS).
    context_fields: ClassVar[frozenset[str] | None] = USED_FIELDS
    action_flags: ClassVar[Mapping[str, tuple[str, ...]]] = {"win": ("tianhu",)}  # WH-32
    public_facts: ClassVar[Mapping[str, str]] = {"shen": "choice:odd|even", "shen_shown": "tile",
                                                 "dead": "seat_bools", "offer": "choice:draw|discard"}
    private_facts: ClassVar[Mapping[str, str]] = {"chi_ban": "tiles", "peng_ban": "tiles",
                                                  "menzi_ban": "tiles", "locked": "tiles"}

    def __init__(self, options: Mapping[str, Any] | WaihuziOptions | None = None) -> None:
        key = None
        if type(options) is dict:
            try:
                key = tuple([(name, type(value), value) for name, value in options.items()])
                checked = _CHECKED.get(key)
            except TypeError:  # an unhashable value: checked (and refused) below
                key = checked = None
            if checked is not None:
                self.options, self._options_dict = checked
                self.house_wins = self.options.dandiao != "table"
                return
        self.options = WaihuziOptions.from_mapping(options)
        self._options_dict = self.options.to_dict()
        if key is not None and len(_CHECKED) < _CHECKED_SIZE:
            _CHECKED[key] = (self.options, self._options_dict)
        #: A house rule decides which hands win (WH-30 ``dandiao="plus5"``): the flow then asks
        #: :meth:`layout_wins` instead of the core's test of the spec's minimum.
        self.house_wins = self.options.dandiao != "table"

    def options_dict(self) -> dict[str, Any]:
        return dict(self._options_dict)

    def __repr__(self) -> str:
        return f"WaihuziRules({self.options_dict()!r})"

    def tiles(self) -> Sequence[int]:
        """WH-1: the 80 cards, four of each kind 0..19 (小一..小十, 大壹..大拾)."""
        return ALL_CARDS

    @staticmethod
    def dealer_after(winner: int | None, haidi_drawer: int) -> int:
        """WH-6, WH-46: the winner deals next; after 黄庄 the player who turned up the 海底 card."""
        return haidi_drawer if winner is None else winner

    def next_round(self, round_wind: int, dealer: int, next_dealer: int, first_dealer: int) -> tuple[int, bool]:
        """No winds or rounds in Wai Huzi (§10): a session lasts as many hands as the caller plays."""
        return (round_wind, False)

    def layout_wins(self, hand: Sequence[int], groups: Sequence[Declared], card: int, self_drawn: bool) -> bool:
        """Do ``hand`` and ``groups`` with ``card`` (self-drawn or another player's) make a winning layout under
        the house rules (:mod:`.house`)? The flow asks when :attr:`house_wins` is set."""
        return best_house_layout(hand, groups, card, "self" if self_drawn else "other", self.options) is not None

    def check(self, context: WinContext) -> None:
        """Raise if ``context`` is not a legal win: :class:`~.scoring.NotAWin` when the cards do not split or fall
        short of ``min_huxi`` (WH-28, WH-32), :class:`~hupai.InvalidHand` for malformed cards or groups,
        :class:`~hupai.HupaiError` for a field Wai Huzi does not use, a seat outside 0..2 or contradicting facts."""
        best_layout(check_context(context, self.options), self.options)

    def describe_facts(self, extras: Mapping[str, Any]) -> list[Fact]:
        """WH-5: the session 神 (a parity) and the card shown to fix it; WH-39: 神腰, what the 神 is for; WH-21..27:
        each 死手 seat (it may not win this hand); WH-17: where the card on offer came from."""
        facts = []
        shen = extras.get("shen")
        if type(shen) is str and shen in _PARITY:
            shown = tile_of(extras, "shen_shown", 20)
            facts.append(Fact("神", "Spirit", _PARITY[shen] + (f", from the card shown, {card_name(shown, 'chinese')}"
                                                               if shown >= 0 else ""), (shown,) if shown >= 0 else ()))
            facts.append(Fact("神腰", "Spirit's waist", f"after a win the next stock card is turned up: if it is "
                              f"{shen} too, the win scores ×2"))
        for seat, dead in enumerate(seat_values(extras, "dead")):
            if dead is True:
                facts.append(Fact("死手", "Dead hand", f"{seat_label(seat)} may not win this hand", (), seat))
        offer = extras.get("offer")
        if type(offer) is str and offer in _OFFER:
            facts.append(Fact("出牌", "Card on offer", _OFFER[offer]))
        return facts

    def pattern_names(self) -> Mapping[str, tuple[str, str]]:
        """WH-35..41: the 名堂 names."""
        return _NAMES

    def score(self, context: WinContext) -> ScoreResult:
        """The score of a win (WH-33..43); raises as :meth:`check` does when it is not one."""
        return score_win(context, self.options)
