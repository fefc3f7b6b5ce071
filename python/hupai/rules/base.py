"""The rule-system interface the table engine consults (DESIGN §4), and its contract.

A rule system is an object the engine asks questions; it never changes the game itself. Every hook receives
``table``, a read-only :class:`~hupai.rules.contract.TableView` of the hand (mahjong family), and answers; a
hook that needs the state to change returns :data:`~hupai.rules.contract.Effects`, which the engine applies and
logs. What a rule system can do beyond the defaults it declares in :attr:`Rules.capabilities`
(:class:`~hupai.rules.contract.Capabilities`): the engine picks its fast paths from that declaration, and a
subclass that overrides a hook without declaring it is refused when the class is made.

The defaults are plain Chinese mahjong (136 tiles, four players, chow from the left, win > kong/pung > chow,
several winners allowed, 补杠 robbable). Every hook, in one place:

- **Setup** (data): :attr:`~Rules.name`, :attr:`~Rules.family` (which engine flow hosts the hand:
  ``"mahjong"``), :attr:`~Rules.num_players`, :attr:`~Rules.hand_size`, :attr:`~Rules.win_forms`,
  :attr:`~Rules.capabilities`; :meth:`~Rules.options_dict`, :meth:`~Rules.tiles`, :meth:`~Rules.seat_winds`,
  :meth:`~Rules.on_deal` (effects: Yunxiao flips its gold from the wall tail).
- **Wall**: :meth:`~Rules.can_draw` (the wall end), :meth:`~Rules.can_kong`, :meth:`~Rules.melds_claimable`
  (GD-8: the last discard may only be won on), :attr:`~Rules.replacement_from_tail`.
- **Claims**: :meth:`~Rules.chow_seats`, :attr:`~Rules.claim_priority`, :attr:`~Rules.multiple_winners` (else
  head-bump in turn order from the discarder), :meth:`~Rules.claim_options` (replaces the standard claims),
  :meth:`~Rules.claim_meld` (the meld a claim makes and the tiles it takes), :meth:`~Rules.on_claim` (effects
  after a claimed meld), :attr:`~Rules.robbable_kongs`.
- **Missed win (漏胡)**: :attr:`~Rules.louhu` (``"same_kind"``, ``"any_tile"`` or ``None``),
  :attr:`~Rules.louhu_clears_on_claim`, :attr:`~Rules.louhu_blocks_robbing`.
- **Wins**: :meth:`~Rules.completes` (does a tile complete a hand), :meth:`~Rules.ready` (is a waiting hand
  ready: the engine caches the answer), :meth:`~Rules.may_win` (extra restrictions: 游金 states, three golds),
  :meth:`~Rules.winning_tiles`.
- **Own turn**: :meth:`~Rules.kong_options`, :meth:`~Rules.forbidden_discards` (过张), :meth:`~Rules.on_discard`
  (effects after each discard: 游 levels), :meth:`~Rules.pre_draw_actions` and :meth:`~Rules.pre_draw_window`
  (declarations before a draw: 游金, 抢金), :meth:`~Rules.turn_extras` and :meth:`~Rules.on_declare`
  (declarations: 亮倒 with a discard; effects and maybe a win), :meth:`~Rules.declares_kong` (a declaration
  that is a kong), :meth:`~Rules.on_kong` (effects: kong money, kong counts),
  :meth:`~Rules.replacement_ends_hand` (a last kong: win on its replacement or end the hand drawn).
- **Scoring and rotation**: :meth:`~Rules.win_context` (the facts of a win, liability included),
  :meth:`~Rules.score`, :meth:`~Rules.on_drawn` (effects of a drawn hand: 荒庄 payments),
  :meth:`~Rules.next_dealer`, :meth:`~Rules.next_round`.
- **Restoring a saved game** (untrusted input): :meth:`~Rules.check_state`, :meth:`~Rules.set_aside`,
  :meth:`~Rules.stand_in`.
- **Observations** (data): :attr:`~Rules.shows_concealed_kongs`.
- **Describing a hand to people**: :meth:`~Rules.describe_facts` (the public ``extras`` as labelled
  :class:`~hupai.rules.facts.Fact` items), :meth:`~Rules.pattern_names` (Chinese and English names of results).

Playing advice for bots lives beside each rule system (``rules/<name>/advice.py``), not here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..actions import ACTIONS, Action
from ..analysis import Forms, is_win, shanten, waits
from ..errors import InvalidHand, InvalidState
from ..hand import Meld
from ..scoring import CONTEXT_DEFAULTS, ScoreResult, WinContext
from ..tiles import STANDARD_TILES, counts_to_kinds
from .contract import Capabilities, Effects, TableView
from .facts import Fact

__all__ = ["Rules", "WinSource", "STANDARD_TILES", "COMMON_CONTEXT_FIELDS"]

#: WinContext fields every system accepts: the tiles, the seats and the table's shape.
COMMON_CONTEXT_FIELDS = frozenset({
    "winner", "win_tile", "concealed", "melds", "discarder", "dealer", "num_players", "first_dealer",
    "winners_on_tile",
})


#: Where a winning tile came from: ``"wall"`` (self-drawn), ``"replacement"`` (after a kong), ``"discard"``,
#: ``"robbed_kong"`` (抢杠), ``"dealt"`` (the dealer's dealt 14), or a rule system's own (``"rob_gold"``).
WinSource = str

#: Hook name -> the capability flag that must be declared to override it.
_DECLARED_BY = {
    "completes": "core_wins", "ready": "core_wins", "claim_options": "custom_claims",
    "chow_seats": "chow_seats", "pre_draw_actions": "pre_draw", "pre_draw_window": "pre_draw",
    "forbidden_discards": "forbidden_discards", "turn_extras": "turn_extras", "kong_options": "kong_options",
    "declares_kong": "declared_kongs", "replacement_ends_hand": "last_kong", "on_discard": "on_discard",
    "on_claim": "on_claim", "on_drawn": "on_drawn", "can_draw": "wall_end", "turn_is_plain": "turn_is_plain",
    "gold_turn": "gold_turn",
}

# claim_meld's answers, built once (Melds are frozen): per discarder and kind the claimed pung and kong; per kind
# the tiles a pung and an exposed kong take from the hand; per discarder, run start and the discard's place in
# the run, the claimed chow, and per run start and place the two tiles it takes.
_KINDS = range(34)
_CLAIMED = (
    tuple(tuple(Meld("pung", (t,) * 3, claimed_from=d, claimed_tile=t) for t in _KINDS) for d in range(4)),
    tuple(tuple(Meld("kong", (t,) * 4, claimed_from=d, claimed_tile=t) for t in _KINDS) for d in range(4)),
    tuple((t, t) for t in _KINDS),
    tuple((t, t, t) for t in _KINDS),
)
_RUN_STARTS = [low for low in range(27) if low % 9 <= 6]
_CHOW_USED = {low: tuple(tuple(k for k in (low, low + 1, low + 2) if k != low + at) for at in range(3))
              for low in _RUN_STARTS}
_CLAIMED_CHOWS = tuple({low: tuple(Meld("chow", (low, low + 1, low + 2), claimed_from=d, claimed_tile=low + at)
                                   for at in range(3)) for low in _RUN_STARTS} for d in range(4))


class Rules(ABC):
    """A rule system. Subclasses set :attr:`name` and implement :meth:`options_dict` and :meth:`score`."""

    name: ClassVar[str] = ""
    #: The engine flow that hosts a hand of this system (``hupai.game`` maps it to its flow class).
    family: ClassVar[str] = "mahjong"
    #: How many tile kinds the family plays: 34 mahjong tiles (0..33); Wai Huzi's zipai cards are 20. It names
    #: the notation a game of this system reads and writes (``hupai.notation``).
    num_kinds: ClassVar[int] = 34
    #: What this system does beyond the defaults; the engine chooses its paths from it.
    capabilities: ClassVar[Capabilities] = Capabilities()
    num_players: int = 4
    #: Tiles dealt to each seat; the dealer gets one more and takes the first turn without drawing.
    hand_size: int = 13
    #: Higher answers beat lower ones when several seats claim one discard.
    claim_priority: ClassVar[dict[str, int]] = {"win": 3, "kong": 2, "pung": 2, "chow": 1}
    #: Every seat that claims 胡 on a discard wins (一炮多响); if False the first in turn order wins (截胡).
    multiple_winners: bool = True
    #: Kong flags other seats may rob (抢杠).
    robbable_kongs: frozenset[str] = frozenset({"added"})
    #: Missed-win scope, or None if the rule system has no 漏胡.
    louhu: str | None = "same_kind"
    #: Whether a chow/pung/kong ends the 漏胡 block (a draw always does).
    louhu_clears_on_claim: bool = True
    #: Whether a 漏胡 block also stops robbing a kong (抢杠), or only wins on discards.
    louhu_blocks_robbing: bool = True
    #: Live tiles left when the hand ends drawn (流局): a normal draw needs more than this many (GD-8's reserve).
    #: The engine reads it itself; a wall end that depends on more overrides :meth:`can_draw` (declared:
    #: ``Capabilities(wall_end=True)``; Yunxiao's reserve grows with kongs).
    dead_wall: int = 0
    #: Kong replacement tiles come from the wall's tail (the order is hidden either way).
    replacement_from_tail: bool = True
    #: Winning forms passed to the core.
    win_forms: Forms = Forms.STANDARD
    #: The :class:`~hupai.scoring.WinContext` fields this system reads beyond :data:`COMMON_CONTEXT_FIELDS`;
    #: :meth:`prepare` refuses any other field not at its default. ``None``: every field is accepted (a
    #: system outside the registry that says nothing).
    context_fields: ClassVar[frozenset[str] | None] = None
    #: Whether another seat's 暗杠 shows its kind (laid with two tiles face up, as Cantonese tables do) or is
    #: laid face down (its kind hidden until the hand ends), in observations (:mod:`hupai.game.mahjong.observation`).
    shows_concealed_kongs: bool = False
    #: For agents (:mod:`hupai.env`): the flags an action kind may carry besides none and the kong flags (a
    #: discard that declares 亮倒, Yunxiao's declarations, Wai Huzi's 天胡), so that a fixed action space can give
    #: each its own indices.
    action_flags: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: For agents: the observation's ``extras`` (public) and ``private`` facts and how each is encoded as
    #: features (:data:`hupai.env.features.FACT_KINDS`: ``"tile"``, ``"int"``, ``"seat_bools"``,
    #: ``"seat_tiles"``, ``"choice:a|b"``, ...). Every fact an observation shows must be declared here.
    public_facts: ClassVar[Mapping[str, str]] = {}
    #: What a pattern's value in a result counts, for people: ``"番"`` (added), ``"×"`` (a factor, multiplied),
    #: ``""`` (an amount): a client writes 清一色 All One Suit 4 番, 七对 Seven Pairs ×4, 平胡 Plain Win 6.
    pattern_unit: ClassVar[str] = ""
    private_facts: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        caps = cls.capabilities
        for hook, flag in _DECLARED_BY.items():
            overridden = getattr(cls, hook) is not getattr(Rules, hook)
            declared = not caps.core_wins if flag == "core_wins" else getattr(caps, flag)
            if overridden and not declared:
                wanted = "core_wins=False" if flag == "core_wins" else f"{flag}=True"
                raise TypeError(f"{cls.__name__} overrides {hook}() but its capabilities do not say so: declare "
                                f"capabilities = Capabilities({wanted}, ...) (the engine calls only declared hooks)")

    # -- setup ------------------------------------------------------------------------------------------
    @abstractmethod
    def options_dict(self) -> dict[str, Any]:
        """The full option set, every option named (recorded in logs and results)."""

    def tiles(self) -> Sequence[int]:
        """The tile multiset of one wall, in a fixed order (the shuffle makes the order)."""
        return STANDARD_TILES

    def seat_winds(self, dealer: int, first_dealer: int) -> tuple[int, ...]:
        """Each seat's wind 0..3 (东南西北) for a hand dealt by ``dealer``: by default the dealer is 东."""
        n = self.num_players
        return tuple((seat - dealer) % n for seat in range(n))

    def on_deal(self, table: TableView) -> Effects:
        """Effects once after the deal, before the dealer's first turn (Yunxiao flips its gold indicator from
        the wall's tail here). None by default."""
        return ()

    # -- wall -------------------------------------------------------------------------------------------
    def can_draw(self, table: TableView) -> bool:
        """May the next normal draw happen? False ends the hand as drawn (流局). By default while more than
        :attr:`dead_wall` live tiles remain."""
        wall = table.wall
        return wall.tail - wall.head > self.dead_wall

    def gold_turn(self, table: TableView) -> tuple[int, list[int], int, bool, int] | None:
        """The facts of the core's quiet discard in Yunxiao's shape (declare ``gold_turn=True``; never asked
        otherwise), for plain discards with the claim window ``"eligible"``: ``(gold, the seats' 游 levels, the
        reserve a normal draw must leave on the wall, the buda_loose option, the dealer while the gold may be
        robbed or -1)``, or None when no normal draw is allowed at all. They must follow from ``table.extras``
        alone (and the hand's fixed facts): the engine asks again only when the table holds another mapping (it
        replaces the mapping when a rule sets a fact). The core then plays the discard and the next seat's draw
        only if the hooks would do nothing else (``_core.yunxiao_turn``: no claim, no 游 level that moves, no
        declaration the next seat may make before its draw), and leaves every other discard to them."""
        return None

    def can_kong(self, table: TableView) -> bool:
        """May a kong be declared now? By default a replacement tile must remain."""
        wall = table.wall
        return wall.tail > wall.head

    def melds_claimable(self, table: TableView) -> bool:
        """May the discard on the table be chowed, punged or konged? By default if another draw follows."""
        return self.can_draw(table)

    # -- claims -----------------------------------------------------------------------------------------
    def chow_seats(self, table: TableView, discarder: int) -> tuple[int, ...]:
        """The seats that may chow ``discarder``'s discard: by default only its 下家; ``()`` for no chow
        (declare ``chow_seats=True`` to override)."""
        return ((discarder + 1) % table.num_players,)

    def claim_options(self, table: TableView, tile: int, discarder: int) -> dict[int, list[Action]]:
        """Every claim each other seat may make on ``tile`` discarded by ``discarder`` (``pass`` not
        included; seats with no claim left out), in turn order from the discarder. Asked only if the system
        declares ``custom_claims``; otherwise the engine offers the standard claims itself (in the core): win
        (:meth:`completes` and :meth:`may_win`), then kong (three held, :meth:`can_kong`) and pung (two held) if
        :meth:`melds_claimable`, and chows to :meth:`chow_seats`. The engine removes wins blocked by 漏胡 and
        adds ``pass``."""
        raise NotImplementedError(f"{self.name} declares custom_claims but does not define claim_options")

    def claim_meld(self, table: TableView, action: Action) -> tuple[tuple[int, ...], Meld]:
        """The meld a winning claim ``action`` on the discard makes, and the physical kinds it takes from the
        claimer's concealed tiles (the discard itself not among them).

        The default reads everything as physical kinds: a chow's ``action.tiles`` are its run (the discard among
        them), a pung or kong is of the discard's kind. A rule system with stand-in tiles (Yunxiao's 白板 as the
        gold's face, YX-7) records the meld in the kinds the tiles play as, while the hand gives up the tiles it
        holds.
        """
        tile, discarder = table.last_discard, table.discarder
        kind = action.kind
        if kind == "pung":  # melds are immutable: the engine's claims share ones built once
            return _CLAIMED[2][tile], _CLAIMED[0][discarder][tile]
        if kind == "chow":
            low = action.tiles[0]
            return _CHOW_USED[low][tile - low], _CLAIMED_CHOWS[discarder][low][tile - low]
        return _CLAIMED[3][tile], _CLAIMED[1][discarder][tile]

    def on_claim(self, table: TableView, seat: int, meld: Meld) -> Effects:
        """Effects after ``seat``'s claimed ``meld`` is on the table (the last of ``table.melds[seat]``; a
        claimed kong: before its replacement draw). None by default (Yunxiao notes a chow's turn, YX-16)."""
        return ()

    # -- wins -------------------------------------------------------------------------------------------
    def completes(self, table: TableView, seat: int, tile: int, in_hand: bool) -> bool:
        """Is ``seat``'s hand complete with ``tile``? ``in_hand``: the tile is already among its concealed
        tiles (a draw); otherwise it comes from another player and must complete a waiting hand. Shape
        only: :meth:`may_win` and 漏胡 come on top. The default is the core's test of :attr:`win_forms`
        (declare ``core_wins=False`` to override: the engine's scans then ask this instead of the core)."""
        melds = len(table.melds[seat])
        if in_hand:
            return is_win(table.views[seat], melds=melds, forms=int(self.win_forms))
        hand = table.hands[seat]
        if hand[tile] >= 4 or sum(hand) != self.hand_size - 3 * melds:
            return False  # a fifth copy, or a hand between a claim and its discard (it waits on nothing)
        counts = bytearray(hand)
        counts[tile] += 1
        return is_win(counts, melds=melds, forms=int(self.win_forms))

    def ready(self, table: TableView, seat: int) -> bool:
        """Is ``seat``'s waiting hand (without the tile it just drew, if it is its turn) ready (听牌)? The
        engine caches the answer until that hand changes and skips win checks where it is False."""
        counts = bytearray(table.hands[seat])
        if table.turn_seat == seat and table.phase == "turn" and table.drawn >= 0:
            counts[table.drawn] -= 1
        if sum(counts) % 3 != 1:  # a hand between a claim and its discard waits on nothing
            return False
        return shanten(counts, melds=len(table.melds[seat]), forms=int(self.win_forms)) <= 0

    def winning_tiles(self, table: TableView, seat: int) -> list[int]:
        """The kinds that would complete ``seat``'s waiting hand (without the tile it just drew, in its turn),
        by shape (for tests and tools)."""
        drawn = table.drawn if table.turn_seat == seat and table.phase == "turn" else -1
        kinds = table.concealed_kinds(seat, drawn)
        if len(kinds) % 3 != 1:
            return []  # between a claim and its discard: no wait
        return waits(kinds, melds=len(table.melds[seat]), forms=self.win_forms)

    def may_win(self, table: TableView, seat: int, tile: int, source: WinSource) -> bool:
        """Extra conditions on a win whose shape is complete (beyond 漏胡, which the engine applies)."""
        return True

    # -- own turn ---------------------------------------------------------------------------------------
    def kong_options(self, table: TableView, seat: int) -> list[Action]:
        """Kongs ``seat`` may declare in its own turn: 暗杠 of four held, 补杠 onto its own pung."""
        hand = table.hands[seat]
        melds = table.melds[seat]
        if (4 not in hand and not melds) or not self.can_kong(table):
            return []
        out = []
        if 4 in hand:
            kongs = ACTIONS.concealed_kong[seat]
            out = [kongs[kind] for kind in range(34) if hand[kind] == 4]
        for meld in melds:
            if meld.type == "pung" and hand[meld.tiles[0]]:
                out.append(ACTIONS.added_kong[seat][meld.tiles[0]])
        return out

    def on_discard(self, table: TableView, seat: int, tile: int) -> Effects:
        """Effects after every discard (the tile is out of the hand and on the table), before claims are
        offered (Yunxiao's 游 levels, YX-26). None by default."""
        return ()

    def forbidden_discards(self, table: TableView, seat: int) -> frozenset[int]:
        """Kinds ``seat`` may not discard now (Yunxiao's 过张 after a chow). None by default."""
        return frozenset()

    def pre_draw_actions(self, table: TableView, seat: int) -> list[Action]:
        """Declarations ``seat`` may make at the start of its turn, before drawing (游金, 抢金). If any, the
        engine asks the seat (``pass`` = draw normally)."""
        return []

    def pre_draw_window(self, table: TableView, seat: int) -> bool:
        """With ``claim_window="all"``: is ``seat`` asked before its draw, on public facts alone (so that being
        asked reveals nothing of its hand)? It then answers ``pass`` when :meth:`pre_draw_actions` is empty.
        By default only when it has a declaration (facts of the hand may then show: override to hide them)."""
        return bool(self.pre_draw_actions(table, seat))

    def turn_extras(self, table: TableView, seat: int) -> list[Action]:
        """Extra actions in ``seat``'s own turn (e.g. a discard with a 亮倒 flag)."""
        return []

    def turn_is_plain(self, table: TableView, seat: int) -> bool:
        """For a system with turn hooks (``forbidden_discards``, ``turn_extras``, ``kong_options``): is
        ``seat``'s turn now only its discards, every one allowed, whenever the core finds no complete hand and no
        possible kong (four held, or a held tile of an exposed pung)? True lets the engine skip the turn hooks
        (declare ``turn_is_plain=True``; never asked otherwise). False, the default, is always safe. A system that
        tests wins itself (``core_wins=False``) says True only for a seat whose ready cache byte is 0 (known not
        ready): the core's complete-hand test is not made then."""
        return False

    def plain_turn_mask(self, table: TableView) -> int | None:
        """A promise that lets the core play a run of plain turns in one crossing (the built-in bots' turns,
        ``_core.lean_chain``) in a system with a :meth:`turn_is_plain` hook or :meth:`chow_seats`: the seats (a bit
        each) whose turns are never plain now; for every other seat :meth:`turn_is_plain` is True exactly when the
        wall still holds a tile after its draw (``wall.tail != wall.head``) and its hand after the draw is not ready
        (shanten in :attr:`win_forms` above 0); and neither this mask nor :meth:`chow_seats` changes over turns that
        nobody claims from. None, the default, promises nothing: the hooks are asked turn by turn."""
        return None

    def on_declare(self, table: TableView, action: Action) -> tuple[Effects, WinSource | None]:
        """A rule-specific action (a ``declare``, or a discard with a flag) is being applied: its effects, and a
        :data:`WinSource` if it is a win the engine must settle (a flagged discard is then discarded as usual)."""
        raise NotImplementedError(f"{self.name} has no action {action.kind}/{action.flag}")

    def declares_kong(self, table: TableView, action: Action) -> bool:
        """Is the rule-specific own-turn ``action`` (a ``declare`` that :meth:`kong_options` offers) a kong of
        the four ``action.tile`` held, shown as an exposed kong (Yunxiao's self-drawn 明杠, YX-20)?

        If True the engine makes it as it makes its own kongs, and :meth:`on_declare` is not called: offered
        to robbers first if ``action.flag`` is in :attr:`robbable_kongs`, then melded (a ``kong`` event),
        followed by :meth:`on_kong` and the replacement draw. False by default.
        """
        return False

    def on_kong(self, table: TableView, seat: int, meld: Meld) -> Effects:
        """Effects of a kong just made (before its replacement draw): kong money (a
        :class:`~hupai.rules.contract.Pay`), counts kept in the rule state. None by default."""
        return ()

    def replacement_ends_hand(self, table: TableView, seat: int) -> bool:
        """Is the tile ``seat`` just drew after a kong its last chance: may it now only win on it, or else end
        the hand as drawn (流局) without discarding? Asked only while the drawn tile is a kong replacement.

        If True the engine offers the win (when legal) and ``pass``, which ends the hand drawn: no discard, no
        further kong or declaration. False by default (Yunxiao's third kong, YX-23, says True).
        """
        return False

    def on_drawn(self, table: TableView) -> Effects:
        """Effects when the hand ends without a win (流局/荒庄), before its result is settled: payments such as
        Kawuxing's by the number of 亮倒 players (KW-27). None by default."""
        return ()

    # -- restoring a saved game (untrusted input) --------------------------------------------------------
    def set_aside(self, extras: Mapping[str, Any]) -> tuple[int, ...]:
        """Tiles out of play that the rule system's state (``extras``, possibly forged: do not trust its types)
        says it holds, for the tile count of a restored game (Yunxiao's gold indicator). None by default."""
        return ()

    def stand_in(self, extras: Mapping[str, Any]) -> tuple[int, int] | None:
        """``(recorded, physical)``: a chow may record as kind ``recorded`` a tile that is physically kind
        ``physical`` (Yunxiao's 白板 as the gold's face, YX-7), for the tile count of a restored game (``extras``
        possibly forged). None by default."""
        return None

    def check_state(self, table: TableView, actions: Sequence[Action]) -> None:
        """Raise :class:`~hupai.InvalidState` naming the entry of the rule system's own state (``table.extras``)
        that the ``actions`` played so far could not have left. Asked when a saved game is restored, after the
        engine's own checks. By default the state must be empty."""
        if table.extras:
            raise InvalidState(f"snapshot.table.extras: {self.name} keeps no state of its own")

    # -- scoring and rotation ---------------------------------------------------------------------------
    def win_context(self, table: TableView, seat: int, tile: int, source: WinSource, discarder: int | None,
                    winners_on_tile: int) -> WinContext:
        """The facts of a win, for :meth:`score`. The default fills what every system shares, leaving at their
        defaults the fields this system does not read (:attr:`context_fields`)."""
        counts = list(table.hands[seat])
        if source in ("wall", "replacement", "dealt"):
            counts[tile] -= 1  # the winning tile is in the hand already
        return self.context(
            winner=seat, win_tile=tile, concealed=counts_to_kinds(counts), melds=tuple(table.melds[seat]),
            discarder=discarder, dealer=table.dealer, num_players=table.num_players,
            first_dealer=table.first_dealer, seat_wind=table.seat_winds[seat], round_wind=table.round_wind,
            kong_replacement=source == "replacement", robbed_kong=source == "robbed_kong",
            last_tile=source in ("wall", "replacement") and table.wall.live == 0,
            heavenly=source == "dealt", winners_on_tile=winners_on_tile,
        )

    def context(self, **facts: Any) -> WinContext:
        """A :class:`WinContext` of ``facts``, dropping the facts this system does not read (the engine knows
        every fact of a table; :meth:`prepare` would refuse one this system ignores)."""
        used = self.context_fields
        if used is not None:
            facts = {name: value for name, value in facts.items()
                     if name in used or name in COMMON_CONTEXT_FIELDS}
        return WinContext(**facts)

    def prepare(self, context: WinContext) -> WinContext:
        """Check that ``context`` speaks this system's vocabulary and fill what derives from the rest.

        A field this system does not read must be at its default (:class:`~hupai.InvalidHand` names it: a
        silently ignored fact would score wrong); ``seat_wind=None`` becomes the winner's wind under
        :meth:`seat_winds` (the dealer and ``first_dealer``)."""
        if not isinstance(context, WinContext):
            raise InvalidHand(f"expected a WinContext, got {type(context).__name__}")
        used = self.context_fields
        if used is not None:
            for name, default in CONTEXT_DEFAULTS.items():
                if name not in used and name not in COMMON_CONTEXT_FIELDS and getattr(context, name) != default:
                    raise InvalidHand(f"{self.name} does not use WinContext.{name}; leave it at its default "
                                      f"{default!r} (got {getattr(context, name)!r})")
        if context.seat_wind is None and (used is None or "seat_wind" in used):
            n = self.num_players  # a different context.num_players is refused by the system itself
            for name in ("winner", "dealer", "first_dealer"):
                value = getattr(context, name)
                if value is not None and (type(value) is not int or not 0 <= value < n):
                    raise InvalidHand(f"{name}={value!r} is not a seat in 0..{n - 1}")
            first = context.dealer if context.first_dealer is None else context.first_dealer
            winds = self.seat_winds(context.dealer, first)
            context = replace(context, seat_wind=winds[context.winner])
        return context

    def check(self, context: WinContext) -> None:
        """Is ``context`` a legal win under these rules? Returns quietly when it is; raises
        :class:`~hupai.NotAWin` saying why when it is not (the hand is incomplete, or the rules forbid this win),
        and :class:`~hupai.InvalidHand` / :class:`~hupai.HupaiError` for malformed input. By default it scores
        the win; a system with a cheaper test overrides it."""
        self.score(context)

    @abstractmethod
    def score(self, context: WinContext) -> ScoreResult:
        """Score one win (patterns, value, per-seat payments)."""

    def next_dealer(self, table: TableView, winners: Sequence[int]) -> int:
        """Who deals the next hand. By default the dealer repeats if it won or nobody won."""
        if not winners or table.dealer in winners:
            return table.dealer
        return (table.dealer + 1) % table.num_players

    def next_round(self, round_wind: int, dealer: int, next_dealer: int,
                   first_dealer: int) -> tuple[int, bool]:
        """The round wind after the deal passes from ``dealer`` to ``next_dealer``, and whether the match
        ends.

        By default the round advances when the deal returns to ``first_dealer`` and the match ends after
        北.
        """
        if next_dealer == first_dealer and dealer != first_dealer:
            return (round_wind + 1, round_wind + 1 >= 4)
        return (round_wind, False)

    # -- describing a hand to people --------------------------------------------------------------------------
    def describe_facts(self, extras: Mapping[str, Any]) -> list[Fact]:
        """The public facts of an observation's ``extras`` (:attr:`public_facts`) as labelled items a client
        shows as they come (:class:`~hupai.rules.facts.Fact`: Chinese and English label, a readable value, the
        tiles shown, the seat it is about). ``extras`` as an observation holds them (tile kinds as ints); a key
        missing or malformed is left out, never guessed. By default nothing: plain mahjong keeps no facts."""
        return []

    def pattern_names(self) -> Mapping[str, tuple[str, str]]:
        """Every pattern or factor name a result of these rules may report, to its Chinese and English names
        from the rule package's own tables (``{"qing_yi_se": ("清一色", "All One Suit")}``): a client shows
        those, never the pinyin id. By default none."""
        return {}
