"""``hupai.Game``: the public shell of one hand, a state machine driven by actions (DESIGN §4).

The shell is the same for every rule system; the hand itself is run by a *flow* of the rule system's family
(``rules.family``): :class:`~hupai.game.mahjong.flow.MahjongFlow` for the mahjong family (draws enter the hand,
claims on discards: Guangdong, Yunxiao, Kawuxing) and :class:`~hupai.game.zipai.flow.ZipaiFlow` for the zipai family
(Wai Huzi: turned-up cards offered to every seat). See :mod:`hupai.game.flow` for what a flow provides. The shell
adds what every game needs:

- :meth:`Game.legal_actions` lists what a seat may do now (cached until the next action); draws are
  automatic.
- :meth:`Game.apply` checks the action against that list *before* touching anything, so an illegal action
  raises :class:`~hupai.IllegalAction` (saying why) and leaves the game exactly as it was; it cannot be
  re-entered (from an action's ``__eq__``, say).
- :attr:`Game.current` says which seats must act; in a claim window every asked seat answers (``pass``
  included) before the rules' priority decides. ``claim_window`` says who is asked (see
  :mod:`hupai.game.mahjong.claims`): ``"all"`` (the default; nothing about concealed tiles shows) or ``"eligible"``.
- The log (:meth:`Game.to_json`) holds a format version, the rules and their full option set, the setup
  (seed, dealer, winds, the claim window when it is ``"all"``) and every action; :meth:`Game.replay` rebuilds
  the game from it, byte for byte.
- :meth:`Game.snapshot` / :meth:`Game.from_snapshot` save and restore the state itself, for servers.

Logs and snapshots hold the seed and every hidden tile: they are for the server's storage, never for a client.
What a client may see is :meth:`Game.observation`.
"""

from __future__ import annotations

import json
import secrets
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from .. import rules as rules_module
from .._core import identity_index
from ..actions import Action, coerce
from ..errors import HupaiError, IllegalAction, InvalidState
from ..events import Event, client_event
from ..jsonform import describe, dict_in
from ..observation import Observation
from ..rules.base import Rules
from .flow import Decision, Flow
from .mahjong.claims import CLAIM_WINDOWS
from .mahjong.flow import MahjongFlow
from .mahjong.observation import Observer
from .result import HandResult
from .spectator import spectator_events, spectator_view
from .state import validate
from .state.snapshot import check_snapshot
from .state.table import Table
from .zipai.codec import is_compact
from .zipai.flow import ZipaiFlow

__all__ = ["Game", "Decision", "LOG_FORMAT", "SNAPSHOT_FORMAT", "SNAPSHOT_FORMATS", "FLOWS"]

LOG_FORMAT = "hupai-game-log/1"
SNAPSHOT_FORMAT = "hupai-game-snapshot/2"
#: The snapshot formats :meth:`Game.from_snapshot` reads, oldest first (the last is the one written).
SNAPSHOT_FORMATS = ("hupai-game-snapshot/1", SNAPSHOT_FORMAT)

#: The flow class hosting each rule-system family (``Rules.family``).
FLOWS: dict[str, Callable[[Rules, str], Flow]] = {"mahjong": MahjongFlow, "zipai": ZipaiFlow}  # type: ignore[dict-item]


class _Busy(dict):  # type: ignore[type-arg]
    """Stands in for a game's legal-action cache while it is busy (or broken), so that the cache's own look-ups
    refuse re-entry at no cost to the idle path."""

    def __init__(self, why: str) -> None:
        super().__init__()
        self.why = why

    def get(self, *args: Any) -> Any:
        raise HupaiError(self.why)

    def __getitem__(self, key: Any) -> Any:
        raise HupaiError(self.why)

    def __setitem__(self, key: Any, value: Any) -> None:
        raise HupaiError(self.why)


_ASKING = _Busy("the game is finding legal actions: a rule hook may not apply or ask for actions meanwhile")
_APPLYING = _Busy("apply() was re-entered while an action was being applied")  # also set by play()'s apply
_BROKEN = _Busy("this game failed while applying an action and can no longer be used")


class _SeatsToAct(tuple[int, ...]):
    """The seats to act, still callable as the old method was (with a DeprecationWarning)."""

    __slots__ = ()

    def __call__(self) -> tuple[int, ...]:
        warnings.warn("Game.seats_to_act is a property now: drop the ()", DeprecationWarning, stacklevel=2)
        return tuple(self)


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _checked_wall(rules: Rules, wall: Any) -> list[int]:
    """A given wall as a list of plain ints holding exactly the rule system's tiles (checked before it is
    sorted: a wall mixing strs and ints must not raise TypeError, nor 1.0 or True pass for the tile 1). Bytes are
    a wall too: what :func:`~hupai.game.state.wall.shuffle` returns and a table's ``wall.tiles`` hold."""
    tiles = rules.tiles()
    if (not isinstance(wall, Sequence) or isinstance(wall, str) or len(wall) != len(tiles)
            or any(type(tile) is not int for tile in wall) or sorted(wall) != sorted(tiles)):  # noqa: E721
        raise HupaiError(f"a given wall must be a list of {len(tiles)} ints holding exactly the rule system's "
                         f"tiles, got {describe(wall)}")
    return list(wall)


def _flow_for(rules: Rules, window: str) -> Flow:
    flow = FLOWS.get(rules.family)
    if flow is None:
        raise HupaiError(f"{rules.name}: no engine flow for the rule family {rules.family!r} "
                         f"(known: {', '.join(sorted(FLOWS))})")
    return flow(rules, window)


class Game:
    """One hand of a rule system.

    ``rules`` is a rule-system name (``"guangdong"``) with ``options``, or a rules object (then
    ``options`` must be None). ``seed`` (0..2**64-1) fixes the wall; without one, a seed is drawn from the OS
    (``secrets.randbits(64)``) and recorded in ``setup["seed"]``, so the log still replays. ``dealer`` deals
    and takes the first turn;
    ``round_wind`` (0..3 = 东南西北) and ``first_dealer`` (the match's first dealer, for fixed seat winds)
    come from the match. ``wall`` replaces the shuffled wall with a given tile order (see
    :func:`~hupai.game.state.wall.stacked_wall`); it is kept in the log. ``claim_window`` is ``"all"`` (every other
    seat is asked about each discard: what a server needs) or ``"eligible"`` (only seats with a claim: fastest,
    for simulations; who is asked then depends on concealed tiles).

    **Secrets**: the log (:meth:`to_json`) and :meth:`snapshot` hold the seed and every hidden tile (each
    hand, the wall's order); they are for the server's own storage and must never reach a client. Only
    :meth:`observation` (one seat's view) may be sent to that seat's player, and :meth:`spectator_view` (what every
    seat may know) to anyone.
    """

    __slots__ = ("rules", "setup", "_flow", "_actions", "_prefix", "_event_prefix", "_legal", "_observer")
    _observer: Observer  # made at the first observation asked for (see observation)

    def __init__(self, rules: str | Rules = "guangdong", seed: int | None = None, dealer: int = 0,
                 options: Mapping[str, Any] | None = None, *, round_wind: int = 0,
                 first_dealer: int | None = None, wall: Sequence[int] | None = None,
                 claim_window: str = "all") -> None:
        if isinstance(rules, str):
            rules = rules_module.get(rules, options)
        elif options is not None:
            raise HupaiError("options are given with a rule-system name; a rules object carries its own")
        if not isinstance(rules, Rules):
            raise HupaiError(f"rules must be a rule-system name or a Rules object, "
                             f"got {type(rules).__name__}")
        n = rules.num_players
        for name, value, limit in (("dealer", dealer, n), ("round_wind", round_wind, 4),
                                   ("first_dealer", dealer if first_dealer is None else first_dealer, n)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
                raise HupaiError(f"{name} must be an int in 0..{limit - 1}, got {describe(value)}")
        if seed is None:  # never a fixed default: a server that forgets the seed must not deal one wall forever
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= validate.MAX_SEED:
            raise HupaiError(f"seed must be an int in 0..2**64-1, got {describe(seed)}")
        if wall is not None:
            wall = _checked_wall(rules, wall)
        if type(claim_window) is not str or claim_window not in CLAIM_WINDOWS:  # noqa: E721
            raise HupaiError(f"claim_window must be one of {', '.join(CLAIM_WINDOWS)}, got {describe(claim_window)}")
        self.rules = rules
        self.setup: dict[str, Any] = {"seed": seed, "dealer": dealer, "round_wind": round_wind,
                                      "first_dealer": dealer if first_dealer is None else first_dealer}
        if wall is not None:
            self.setup["wall"] = list(wall)
        if claim_window != "eligible":  # absent means "eligible": what every log of format 1 before it meant
            self.setup["claim_window"] = claim_window
        self._actions: list[Action] = []
        self._prefix: list[Any] = []  # after from_snapshot: earlier actions in their JSON form (parsed lazily)
        # After from_snapshot: the events of the first N actions, not rebuilt until someone asks.
        self._event_prefix: int | None = None
        self._legal: dict[int, tuple[Action, ...]] = {}
        self._flow = _flow_for(rules, claim_window)
        self._flow.deal(seed, dealer, round_wind, self.setup["first_dealer"], self.setup.get("wall"))

    # -- decisions --------------------------------------------------------------------------------------
    @property
    def table(self) -> Table:
        """The hand's full state (every seat's tiles and the wall: never for a client; see :meth:`observation`)."""
        return self._flow.table

    @property
    def claim_window(self) -> str:
        return self._flow.window

    @property
    def num_players(self) -> int:
        """How many seats play this hand (``rules.num_players``: 4, or 3 for Kawuxing and Wai Huzi)."""
        return self._flow.table.num_players

    @property
    def num_kinds(self) -> int:
        """How many tile kinds this game plays (``rules.num_kinds``): 34 mahjong tiles, or Wai Huzi's 20 cards. It
        names the notation the game reads and writes (:meth:`Action.from_dict`, :meth:`Action.describe`)."""
        return self.rules.num_kinds

    @property
    def current(self) -> Decision:
        """Who must act now (phase, seats, the tile in question and its source)."""
        return self._flow.current

    @property
    def seats_to_act(self) -> tuple[int, ...]:
        """The seats that must act now (``current.seats`` without building the whole Decision). A property like
        :attr:`current`; the older call form ``seats_to_act()`` still works, with a DeprecationWarning."""
        return _SeatsToAct(self._flow.seats_to_act())

    @property
    def over(self) -> bool:
        return self._flow.table.phase == "over"

    @property
    def result(self) -> HandResult | None:
        """The hand's result once it is over (winners, patterns, points, payments, next dealer), else None."""
        flow = self._flow
        if flow.result is None and flow.table.phase == "over":
            self._rebuild_history()
        return flow.result

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now (empty if it has nothing to decide)."""
        # While the game is busy, _legal is a guard whose get() refuses. (An unhashable seat must not reach get().)
        cached = self._legal.get(seat) if type(seat) is int else None  # noqa: E721
        if cached is None:
            self._seat(seat)  # only on a miss: a cached seat was checked when it was cached
            cache = self._legal
            self._legal = _ASKING  # a rule hook asked here must not apply an action meanwhile
            try:
                cached = cache[seat] = self._flow.legal_actions(seat)
            finally:
                self._legal = cache
        return cached

    def apply(self, action: Action | Mapping[str, Any]) -> None:
        """Validate ``action`` against the legal actions, then apply it; IllegalAction changes nothing.

        Raises :class:`~hupai.HupaiError` if called while another action is being applied or the legal actions
        are being found (re-entry, say from a rule hook or an action's ``__eq__``)."""
        cache = self._legal  # a refusing stand-in (_Busy) if the game is busy or broken: its look-ups raise
        # From here the game is busy: comparing the caller's action may run its code (__eq__), and a rule hook
        # may try to call back; neither can change the game or ask it anything.
        self._legal = _APPLYING
        try:
            # Fast path: usually one of the cached legal actions itself (shared prebuilt objects), found by
            # identity (comparing pointers only). Anything else takes the slow path below, which compares a plain
            # copy; the engine's own copy is the one applied and logged.
            if identity_index(cache[action[1]], action) < 0:  # type: ignore[index]
                raise LookupError
            chosen: Action = action  # type: ignore[assignment]  # the engine's own object, found above
        except Exception:
            try:
                chosen = self._chosen(action, cache)
            except BaseException:
                self._legal = cache  # refused: the game is exactly as it was
                raise
        self._actions.append(chosen)
        try:
            known = self._flow.apply(chosen)
        except BaseException as error:
            self._failed(chosen, error)
        self._legal = known  # a new cache, holding what the flow already knows (a plain turn's discards)

    def _failed(self, chosen: Action, error: BaseException) -> NoReturn:
        """A legal action failed half-way: a rule system's bug (the flow validates before it changes anything).
        The state is no longer trustworthy, so the game refuses to go on (:func:`~hupai.game.play`'s own apply
        path ends here too)."""
        self._legal = _BROKEN
        raise HupaiError(f"internal error while applying {chosen.describe(self.rules.num_kinds)}; the game can no "
                         f"longer be used: {type(error).__name__}: {error}") from error

    def apply_json(self, seat: int, data: str | bytes | bytearray | Mapping[str, Any]) -> Action:
        """Apply an action a client sent for ``seat``: JSON text or its parsed object, in the contract's form
        (:meth:`Action.to_dict`: tiles in notation or ints; ``seat`` may be left out). Returns the action
        applied (the engine's own copy).

        Everything is checked before the game changes: malformed JSON, wrong types, unknown fields, a ``seat``
        that is not the sender's, an action not legal now. Each raises :class:`~hupai.IllegalAction` (a
        :class:`~hupai.HupaiError`) saying what, and leaves the game exactly as it was."""
        n = self._flow.table.num_players
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"seat {describe(seat)} is not a seat of this {n}-player game")
        data = dict_in(data, "action", error=IllegalAction)  # text parsed (quoted twice too), a dict kept
        if type(data) is not dict:
            raise IllegalAction(f"malformed action: expected a JSON object, got {type(data).__name__}")
        if "seat" not in data:
            data = {**data, "seat": seat}
        action = Action.from_dict(data, self.rules.num_kinds)  # the game's own notation only, never guessed
        if action.seat != seat:
            raise IllegalAction(f"an action of P{seat} names seat {action.seat}: a seat acts only for itself")
        self.apply(action)
        applied: Action = self._actions[-1]
        return applied

    def _chosen(self, action: Any, cache: dict[int, tuple[Action, ...]]) -> Action:
        """The engine's own legal action equal to ``action`` (``cache``: the legal actions known so far, filled
        here), or IllegalAction. The engine's copy is the one applied and logged: an equal action with odd
        types must not reach the log."""
        action = coerce(action, self.rules.num_kinds)  # raises on a malformed action; its result has plain fields
        seat = action[1]
        n = self._flow.table.num_players
        if not 0 <= seat < n:
            raise IllegalAction(f"{action.describe(self.rules.num_kinds)}: seat {seat} is not a seat of this "
                                f"{n}-player game")
        legal = cache.get(seat)
        if legal is None:
            legal = cache[seat] = self._flow.legal_actions(seat)
        try:
            return legal[legal.index(action)]
        except ValueError:
            raise IllegalAction(self._flow.why_illegal(action, legal)) from None

    # -- views ------------------------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (:class:`~hupai.observation.Observation`): its own tiles, everyone's melds and
        discards, hand sizes, not the wall order. The game keeps one :class:`~hupai.game.Observer`
        for its hand (it freezes the hand's fixed facts once and rebuilds a view only when the table moved), so
        asking at every decision costs no more than keeping an observer oneself."""
        try:
            observer: Observer | None = self._observer
        except AttributeError:  # not asked yet
            observer = None
        if observer is None or observer._table is not self._flow.table:
            observer = self._observer = Observer.kept(self)
        return observer.view(self, seat)

    def hand(self, seat: int) -> list[int]:
        """``seat``'s concealed tile counts (34 entries; a copy). Bots read their own hand here."""
        return list(self.table.hands[self._seat(seat)])

    def _seat(self, seat: Any) -> int:
        """``seat`` if it is a seat of this table (an int, not a bool, in range); else HupaiError. A seat from
        outside must not index the table (a negative one would read another seat's tiles)."""
        n = self._flow.table.num_players
        if type(seat) is not int or not 0 <= seat < n:  # noqa: E721
            raise HupaiError(f"seat {describe(seat)} is not a seat of this {n}-player game")
        return seat

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order."""
        return list(self._all_actions())

    def _all_actions(self) -> list[Action]:
        if self._prefix:
            self._actions[:0] = [Action.from_compact(a) for a in self._prefix]
            self._prefix = []
        return self._actions

    def visible_events(self, seat: int) -> list[Event]:
        """The event log as ``seat`` sees it: other seats' dealt and drawn tiles masked, and the kind of another
        seat's concealed kong too where the rules lay it face down (``rules.shows_concealed_kongs``)."""
        return self._masked_events(self._seat(seat))

    def _masked_events(self, seat: int) -> list[Event]:
        """:meth:`visible_events` of ``seat``, or with -1 of a spectator (every seat's draws masked)."""
        events = self.events
        hide_kongs = not self.rules.shows_concealed_kongs
        out = []
        for index, event in enumerate(events):
            if (hide_kongs and event.type == "kong" and event.seat != seat and not event.info
                    and not (index and events[index - 1].type in ("declare", "rob")
                             and events[index - 1].tile == event.tiles[0])):
                # A kong with no source that no declaration or rob window announced: a concealed kong (暗杠).
                out.append(event._replace(tiles=()))
            else:
                out.append(event.visible_to(seat))
        return out

    def events_for(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        """The public event stream of ``seat``: its :meth:`visible_events` from index ``since`` on, in the JSON
        contract for clients (:func:`hupai.events.client_event`: tiles in notation, other seats' draws masked).
        A client that has read ``k`` events asks with ``since=k``; the stream of a hand only grows, so
        ``len(events_for(seat))`` is where the next read starts. ``since`` beyond the end gives ``[]``."""
        if type(since) is not int or since < 0:  # noqa: E721
            raise HupaiError(f"since must be an int >= 0, got {describe(since)}")
        kinds = len(self._flow.table.hands[0])  # the flow's tile kinds: 34, or Wai Huzi's 20 cards
        return [client_event(event, kinds) for event in self.visible_events(seat)[since:]]

    def spectator_view(self) -> dict[str, Any]:
        """What a spectator may see now: what every seat may know and no more, as plain JSON data in the form of
        a seat's observation with ``"seat": null`` and no hand, drawn tile or legal actions
        (:mod:`hupai.game.spectator`)."""
        return spectator_view(self)

    def spectator_events(self, since: int = 0) -> list[dict[str, Any]]:
        """A spectator's event stream from index ``since`` on: :meth:`events_for` with every seat's dealt and
        drawn tiles masked (:func:`hupai.game.spectator.spectator_events`)."""
        return spectator_events(self, since)

    @property
    def events(self) -> list[Event]:
        if self._event_prefix is not None:
            self._rebuild_history()
        return self._flow.events[:]  # a copy (one decoding pass: list() would ask len() first)

    @property
    def event_count(self) -> int:
        """``len(game.events)``, without copying the events (a server says it in every state message; the log
        decodes each record once)."""
        if self._event_prefix is not None:
            self._rebuild_history()
        return len(self._flow.events)

    # -- log, replay, snapshot --------------------------------------------------------------------------
    def log(self) -> dict[str, Any]:
        """The full log as plain data (see :meth:`to_json`)."""
        result = self.result
        return {
            "format": LOG_FORMAT, "rules": self.rules.name, "options": self.rules.options_dict(),
            "setup": self._setup_copy(), "actions": [a.to_log() for a in self._all_actions()],
            "events": [e.to_dict() for e in self.events],
            "result": None if result is None else result.to_log(),
        }

    @classmethod
    def replay(cls, log: str | bytes | bytearray | Mapping[str, Any], upto: int | None = None, *,
               rules: Rules | None = None) -> Game:
        """Rebuild a game from its log (JSON text or the :meth:`log` dict), or its first ``upto`` actions.

        The rules are rebuilt from the log's name and options, or taken from ``rules`` (for a rule system that
        is not in the registry; its name and options must be the log's).

        The log is checked (:mod:`hupai.game.state.validate`): anything :meth:`to_json` would not write raises
        :class:`~hupai.InvalidState` naming the field, and so does an action that is not legal where it stands
        (the message names ``log.actions[i]`` and gives the IllegalAction's reason). ``events`` and ``result``
        may be left out; if present (and the whole log is replayed) they must be what the actions give.
        """
        if isinstance(log, (str, bytes, bytearray)):
            data = validate.load_json(log, "log")
        else:
            data = log
        if upto is not None and (type(upto) is not int or upto < 0):  # noqa: E721
            raise HupaiError(f"upto must be a non-negative int or None, got {describe(upto)}")
        rules, setup = validate.check_log(data, LOG_FORMAT, rules)
        game = cls._from_setup(rules, setup)
        actions = data["actions"]
        for index, action in enumerate(actions[:upto]):
            try:
                game.apply(action)
            except IllegalAction as error:
                raise InvalidState(f"log.actions[{index}]: {error}") from None
        if upto is None or upto >= len(actions):
            log_of = game.log() if "events" in data or "result" in data else {}
            for key in ("events", "result"):
                if key in data and data[key] != log_of[key]:
                    raise InvalidState(f"log.{key}: not what the log's actions give")
        return game

    @classmethod
    def _from_setup(cls, rules: Rules, setup: Mapping[str, Any]) -> Game:
        return cls(rules, seed=setup["seed"], dealer=setup["dealer"], round_wind=setup["round_wind"],
                   first_dealer=setup["first_dealer"], wall=setup.get("wall"),
                   claim_window=setup.get("claim_window", "eligible"))

    def _setup_copy(self) -> dict[str, Any]:
        setup = dict(self.setup)
        if "wall" in setup:
            setup["wall"] = list(setup["wall"])
        return setup

    def to_json(self) -> str:
        """The log as JSON with sorted keys and fixed separators: same seed and actions, same bytes."""
        return _dumps(self.log())

    def to_dict(self) -> dict[str, Any]:
        """The log as plain data (:meth:`log`): what :meth:`to_json` writes."""
        return self.log()

    @classmethod
    def from_json(cls, log: str | bytes | bytearray | Mapping[str, Any], *, rules: Rules | None = None) -> Game:
        """The game a log gives, from its JSON text or its dict (:meth:`replay` of the whole log)."""
        return cls.replay(log, rules=rules)

    @classmethod
    def from_dict(cls, log: Mapping[str, Any], *, rules: Rules | None = None) -> Game:
        """The game a log's dict gives (:meth:`replay` of the whole log)."""
        return cls.replay(log, rules=rules)

    def snapshot(self) -> dict[str, Any]:
        """A compact JSON-able copy of the state (format :data:`SNAPSHOT_FORMAT`): the table itself (a mahjong
        table in format 2's compact form, :mod:`hupai.game.state.compact`), plus the actions so far (each in its
        compact list form ``[kind, seat, tile, tiles, flag]``; kept so a restored game still writes the
        whole log) but not the events (rebuilt on demand)."""
        return {
            "format": SNAPSHOT_FORMAT, "rules": self.rules.name, "options": self.rules.options_dict(),
            "setup": self._setup_copy(), "table": self._flow.snapshot_table(),
            "actions": [*self._prefix, *self._actions],  # Actions are tuples: JSON arrays as they stand
        }

    @classmethod
    def from_snapshot(cls, snap: Mapping[str, Any], *, rules: Rules | None = None, verify: bool = False) -> Game:
        """Restore a game saved by :meth:`snapshot`; it continues exactly as the original would. ``rules`` as
        for :meth:`replay`.

        The snapshot is checked (:mod:`hupai.game.state.snapshot`) and anything :meth:`snapshot` would not write
        raises :class:`~hupai.InvalidState` naming the field: schema, types, sizes, the format version, the
        wall the setup deals, tile conservation, seats and phase, the open claim window (the one the rules
        open), the actions' shapes and what the last ones fix. That structural check is always made: the
        restore stays a server's per-request path (format 2's table is checked in bulk, see
        :mod:`hupai.game.state.compact`; format 1, written by earlier versions, is read too). ``verify=True`` adds
        the complete check: replay the setup and actions and require the very same table (a replay's cost,
        about 1.25 ms; a finished hand is always restored this way, its result comes from that replay anyway).
        Without it, a snapshot that is self-consistent but was edited against its own log (two seats' hands
        swapped) loads; a forged earlier action raises InvalidState once the history is rebuilt (``events``,
        ``result``, :meth:`log`). A zipai (Wai Huzi) table is read the same way from its compact form
        (:mod:`hupai.game.zipai.codec`); one in the full form hupai wrote before it is restored by that replay:
        its shape is checked, then the replay must give it field by field.
        """
        rules, setup, table = check_snapshot(snap, SNAPSHOT_FORMATS, rules)
        if table is None or verify or table.phase == "over":  # None: a zipai table checked by replay
            return cls._replayed_snapshot(snap, rules, setup)
        game = cls.__new__(cls)
        game.rules = rules
        game.setup = setup
        game._flow = _flow_for(game.rules, game.setup.get("claim_window", "eligible"))
        game._flow.restore(table)  # type: ignore[arg-type]  # (a ZipaiTable for the zipai flow, as it deals)
        game._prefix = list(snap["actions"])
        game._actions = []
        game._event_prefix = len(game._prefix)
        game._legal = {}
        return game

    @classmethod
    def _replayed_snapshot(cls, snap: Mapping[str, Any], rules: Rules, setup: Mapping[str, Any]) -> Game:
        """The game a (structurally checked) snapshot's setup and actions give; its table must be the
        snapshot's."""
        game = cls._from_setup(rules, setup)
        for index, action in enumerate(snap["actions"]):
            try:
                game.apply(Action.from_compact(action))
            except IllegalAction as error:
                raise InvalidState(f"snapshot.actions[{index}]: {error}") from None
        # The table in the snapshot's own format (format 1 wrote every table in full, Table.to_json).
        theirs = snap["table"]
        # (A zipai table in the full form hupai wrote before the compact one, :mod:`.zipai.codec`, is to_json's.)
        full = snap["format"] == SNAPSHOT_FORMATS[0] or rules.family == "zipai" and not is_compact(theirs)
        mine = game.table.to_json() if full else game._flow.snapshot_table()
        for key, value in mine.items():
            if _dumps(value) != _dumps(theirs[key]):  # checked data: shallow, dumps cannot recurse deeply
                raise InvalidState(f"snapshot.table.{key}: not what the snapshot's setup and actions give")
        return game

    def _rebuild_history(self) -> None:
        """Recover the events (and result) of a restored game by replaying its setup and first actions."""
        if self._event_prefix is None:
            return
        past = Game._from_setup(self.rules, self.setup)
        for index, action in enumerate(self._all_actions()[:self._event_prefix]):
            try:
                past.apply(action)
            except IllegalAction as error:  # a forged action in a snapshot restored without verify=True
                raise InvalidState(f"snapshot.actions[{index}]: {error}") from None
        flow = self._flow
        flow.events.prepend(past._flow.events)
        if flow.result is None:
            flow.result = past._flow.result
        self._event_prefix = None

