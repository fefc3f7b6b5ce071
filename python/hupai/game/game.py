"""``hupai.Game``: one hand as a state machine driven by actions (DESIGN §4).

- :meth:`Game.legal_actions` lists what a seat may do now (cached until the next action); draws are
  automatic.
- :meth:`Game.apply` checks the action against that list *before* touching anything, so an illegal action
  raises :class:`~hupai.IllegalAction` (saying why) and leaves the game exactly as it was.
- :attr:`Game.current` says which seats must act; in a claim window every asked seat answers (``pass``
  included) before the rules' priority decides.
- The log (:meth:`Game.to_json`) holds a format version, the rules and their full option set, the setup
  (seed, dealer, winds) and every action; :meth:`Game.replay` rebuilds the game from it, byte for byte.
- :meth:`Game.snapshot` / :meth:`Game.from_snapshot` save and restore the state itself, for servers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .. import rules as rules_module
from .._core import chosen_action, held_actions, turn_scan
from ..actions import ACTIONS, Action, coerce
from ..errors import HupaiError, IllegalAction
from ..events import Event, RawEvent, as_events
from ..rules.base import Rules
from ..tiles import format_tiles
from .flow import HandFlow, Hooks
from .observation import observe
from .result import HandResult
from .state import Table

__all__ = ["Game", "Decision", "LOG_FORMAT", "SNAPSHOT_FORMAT"]

LOG_FORMAT = "hupai-game-log/1"
SNAPSHOT_FORMAT = "hupai-game-snapshot/1"


class Decision(NamedTuple):
    """Who must act now: ``phase`` (``"turn"``, ``"claim"``, ``"rob"``, ``"predraw"``, ``"over"``), the seats
    still to answer, the tile in question (drawn, discarded or being konged; -1 if none) and its source
    seat."""

    phase: str
    seats: tuple[int, ...]
    tile: int
    source: int


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Game(HandFlow):
    """One hand of a rule system.

    ``rules`` is a rule-system name (``"guangdong"``) with ``options``, or a rules object (then
    ``options`` must be None). ``seed`` fixes the wall; ``dealer`` deals and takes the first turn;
    ``round_wind`` (0..3 = 东南西北) and ``first_dealer`` (the match's first dealer, for fixed seat winds)
    come from the match. ``wall`` replaces the shuffled wall with a given tile order (see
    :func:`~hupai.game.wall.stacked_wall`); it is kept in the log.
    """

    def __init__(self, rules: str | Rules = "guangdong", seed: int = 0, dealer: int = 0,
                 options: Mapping[str, Any] | None = None, *, round_wind: int = 0,
                 first_dealer: int | None = None, wall: Sequence[int] | None = None) -> None:
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
                raise HupaiError(f"{name} must be an int in 0..{limit - 1}, got {value!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise HupaiError(f"seed must be a non-negative int, got {seed!r}")
        if wall is not None and sorted(wall) != sorted(rules.tiles()):
            raise HupaiError("a given wall must hold exactly the rule system's tiles")
        self.rules = rules
        self._hooks = Hooks.of(rules)
        self.setup: dict[str, Any] = {"seed": seed, "dealer": dealer, "round_wind": round_wind,
                      "first_dealer": dealer if first_dealer is None else first_dealer}
        if wall is not None:
            self.setup["wall"] = list(wall)
        self._actions: list[Action] = []
        self._prefix: list = []  # after from_snapshot: earlier actions in their JSON form (parsed lazily)
        self._events: list[Event | RawEvent] = []
        # After from_snapshot: the events of the first N actions, not rebuilt until someone asks.
        self._event_prefix: int | None = None
        self._result: HandResult | None = None
        self._legal: dict[int, tuple[Action, ...]] = {}
        self._deal(seed, dealer, round_wind, self.setup["first_dealer"], self.setup.get("wall"))

    # -- decisions --------------------------------------------------------------------------------------
    @property
    def current(self) -> Decision:
        table = self.table
        phase = table.phase
        if phase == "over":
            return Decision("over", (), -1, -1)
        if phase in ("turn", "predraw"):
            return Decision(phase, (table.turn_seat,), table.drawn, table.turn_seat)
        seats = tuple(s for s in table.pending if s not in table.answers)
        if phase == "rob":
            return Decision(phase, seats, table.kong_tile, table.kong_seat)
        return Decision(phase, seats, table.last_discard, table.discarder)

    def seats_to_act(self) -> tuple[int, ...]:
        """The seats that must act now (``current.seats`` without building the whole Decision)."""
        table = self.table
        phase = table.phase
        if phase == "turn" or phase == "predraw":
            return (table.turn_seat,)
        if phase == "over":
            return ()
        answers = table.answers
        return tuple(s for s in table.pending if s not in answers)

    @property
    def over(self) -> bool:
        return self.table.phase == "over"

    @property
    def result(self) -> HandResult | None:
        """The hand's result once it is over (winners, patterns, points, payments, next dealer), else None."""
        if self._result is None and self.table.phase == "over":
            self._rebuild_history()
        return self._result

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now (empty if it has nothing to decide)."""
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        table = self.table
        phase = table.phase
        if phase == "turn":
            if seat != table.turn_seat:
                out = ()
            elif self._hooks.plain_turns and not turn_scan(
                    table.hands[seat], table.melds[seat], table.drawn if table.ready[seat] is not False else -1,
                    self._hooks.forms):
                # One core call: no complete hand (not looked for if the hand before the draw was known not
                # to be ready) and no kong possible, so the turn is its discards. The common turn.
                out = held_actions(table.hands[seat], ACTIONS.discard[seat])
            else:
                out = self._turn_actions(seat)
        elif phase == "claim" or phase == "rob":
            out = () if seat in table.answers else table.pending.get(seat, ())
        elif phase == "predraw" and seat == table.turn_seat:
            out = (*self.rules.pre_draw_actions(table, seat), ACTIONS.pass_[seat])
        else:
            out = ()
        self._legal[seat] = out
        return out

    def _turn_actions(self, seat: int) -> tuple[Action, ...]:
        table = self.table
        rules = self.rules
        hooks = self._hooks
        hand = table.hands[seat]
        drawn = table.drawn
        # (A plain turn gets here only when _core.turn_scan found a complete hand or a possible kong.)
        win = (drawn >= 0 and table.ready[seat] is not False and rules.completes(table, seat, drawn, True)
               and rules.may_win(table, seat, drawn, table.drawn_from))
        out: list[Action] = [ACTIONS.win[seat][drawn]] if win else []
        if hooks.last_kong and table.drawn_from == "replacement" and rules.replacement_ends_hand(table, seat):
            # A last kong (Yunxiao's third, YX-23): win on the replacement, or ``pass`` to end the hand drawn.
            return (*out, ACTIONS.pass_[seat])
        if 4 in hand or table.melds[seat] or hooks.kongs:
            out.extend(rules.kong_options(table, seat))
        discards = ACTIONS.discard[seat]
        forbidden = rules.forbidden_discards(table, seat) if hooks.forbidden else None
        if forbidden:
            held = [k for k in range(34) if hand[k]]
            kinds = [k for k in held if k not in forbidden] or held  # nothing allowed: the restriction lifts
            out.extend([discards[k] for k in kinds])
        else:
            out.extend(held_actions(hand, discards))
        if hooks.extras:
            out.extend(rules.turn_extras(table, seat))
        return tuple(out)

    def apply(self, action: Action | Mapping[str, Any]) -> None:
        """Validate ``action`` against the legal actions, then apply it; IllegalAction changes nothing."""
        # Fast path: an Action among the seat's legal actions, usually cached by whoever chose it and found
        # by identity (legal actions are shared prebuilt objects). The engine's own copy is the one applied
        # and logged: an equal action with odd types (a float tile 5.0) must not reach the log.
        chosen = chosen_action(self._legal, action, Action)
        if chosen is None:
            action = coerce(action)  # raises on a malformed action
            if not 0 <= action.seat < self.table.num_players:
                raise IllegalAction(self._why_illegal(action))
            self.legal_actions(action.seat)  # fills the cache
            chosen = chosen_action(self._legal, action, Action)
            if chosen is None:
                raise IllegalAction(self._why_illegal(action))
        action = chosen
        self._legal = {}
        self._actions.append(action)
        kind, seat, tile, _, flag = action
        table = self.table
        phase = table.phase
        if phase == "turn":
            if kind == "discard":
                if flag:
                    self.rules.apply_extra(table, action)
                self._discard(seat, tile, flag)
            elif kind == "kong":
                self._own_kong(seat, tile, flag)
            elif kind == "win":
                self._settle([(seat, tile, table.drawn_from, None)])
            elif kind == "pass":  # legal in a turn only after a last kong (Rules.replacement_ends_hand)
                self._end_drawn()
            else:
                self._extra(action)
        elif phase == "predraw":
            if kind == "pass":
                self._draw(seat, "wall")
            else:
                self._extra(action)
        else:  # a claim or rob window
            self._answer(action)

    def _extra(self, action: Action) -> None:
        if self._hooks.declared_kongs and self.rules.declares_kong(self.table, action):
            # A declaration that makes a kong (Yunxiao's self-drawn 明杠, YX-20): the engine's own kong
            # machinery robs, melds, logs and draws the replacement, as for its own kongs.
            self._events.append(Event("declare", action.seat, action.tile, (), action.flag))
            self._own_kong(action.seat, action.tile, action.flag)
            return
        source = self.rules.apply_extra(self.table, action)
        self._events.append(Event("declare", action.seat, action.tile, (), action.flag))
        if source is not None:
            self._settle([(action.seat, action.tile, source, None)])

    def _why_illegal(self, action: Action) -> str:
        table = self.table
        n = table.num_players
        if not 0 <= action.seat < n:
            return f"seat {action.seat} is not a seat of this {n}-player game"
        if table.phase == "over":
            return f"{action}: the hand is over"
        decision = self.current
        if action.seat not in decision.seats:
            if action.seat in table.answers:
                return f"{action}: seat {action.seat} has already answered this claim window"
            waiting = ", ".join(f"P{s}" for s in decision.seats)
            return (f"{action}: it is not P{action.seat}'s decision now "
                    f"({decision.phase}, waiting for {waiting})")
        legal = self.legal_actions(action.seat)
        same_kind = [a for a in legal if a.kind == action.kind]
        if not same_kind:
            kinds = sorted({a.kind for a in legal})
            return (f"{action}: no {action.kind} is legal for P{action.seat} now "
                    f"(legal kinds: {', '.join(kinds)})")
        if action.kind in ("discard", "win", "pung", "kong", "chow") and action.tile < 0:
            return f"{action}: a {action.kind} needs a tile"
        if action.kind == "discard" and not table.hands[action.seat][action.tile]:
            return f"{action}: P{action.seat} holds no {format_tiles([action.tile])}"
        return f"{action} is not legal now; legal {action.kind} actions: {', '.join(map(str, same_kind))}"

    # -- views ------------------------------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own tiles, everyone's melds and discards, counts, not the wall order."""
        return observe(self, seat)

    def hand(self, seat: int) -> list[int]:
        """``seat``'s concealed tile counts (34 entries; a copy). Bots read their own hand here."""
        return list(self.table.hands[seat])

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
        """The event log as ``seat`` sees it: other seats' dealt and drawn tiles masked."""
        return [event.visible_to(seat) for event in self.events]

    @property
    def events(self) -> list[Event]:
        if self._event_prefix is not None:
            self._rebuild_history()
        return as_events(self._events)

    # -- log, replay, snapshot --------------------------------------------------------------------------
    def log(self) -> dict[str, Any]:
        """The full log as plain data (see :meth:`to_json`)."""
        result = self.result
        return {
            "format": LOG_FORMAT, "rules": self.rules.name, "options": self.rules.options_dict(),
            "setup": self._setup_copy(), "actions": [a.to_json() for a in self._all_actions()],
            "events": [e.to_json() for e in self.events],
            "result": None if result is None else result.to_json(),
        }

    @classmethod
    def replay(cls, log: str | Mapping[str, Any], upto: int | None = None, *,
               rules: Rules | None = None) -> Game:
        """Rebuild a game from its log (JSON text or the :meth:`log` dict), or its first ``upto`` actions.

        The rules are rebuilt from the log's name and options, or taken from ``rules`` (for a rule system that
        is not in the registry).
        """
        data = json.loads(log) if isinstance(log, str) else log
        if data.get("format") != LOG_FORMAT:
            raise HupaiError(f"not a hupai game log of format {LOG_FORMAT!r}: {data.get('format')!r}")
        game = cls._from_setup(rules or rules_module.get(data["rules"], data["options"]), data["setup"])
        for action in data["actions"][:upto]:
            game.apply(action)
        return game

    @classmethod
    def _from_setup(cls, rules: Rules, setup: Mapping[str, Any]) -> Game:
        return cls(rules, seed=setup["seed"], dealer=setup["dealer"], round_wind=setup["round_wind"],
                   first_dealer=setup["first_dealer"], wall=setup.get("wall"))

    def _setup_copy(self) -> dict[str, Any]:
        setup = dict(self.setup)
        if "wall" in setup:
            setup["wall"] = list(setup["wall"])
        return setup

    def to_json(self) -> str:
        """The log as JSON with sorted keys and fixed separators: same seed and actions, same bytes."""
        return _dumps(self.log())

    def snapshot(self) -> dict[str, Any]:
        """A compact JSON-able copy of the state: the table itself, plus the actions so far (each in its
        compact list form ``[kind, seat, tile, tiles, flag]``; kept so a restored game still writes the
        whole log) but not the events (rebuilt on demand)."""
        return {
            "format": SNAPSHOT_FORMAT, "rules": self.rules.name, "options": self.rules.options_dict(),
            "setup": self._setup_copy(), "table": self.table.to_json(),
            "actions": [*self._prefix, *self._actions],  # Actions are tuples: JSON arrays as they stand
        }

    @classmethod
    def from_snapshot(cls, snap: Mapping[str, Any], *, rules: Rules | None = None) -> Game:
        """Restore a game saved by :meth:`snapshot`; it continues exactly as the original would. ``rules`` as
        for :meth:`replay`."""
        if snap.get("format") != SNAPSHOT_FORMAT:
            raise HupaiError(f"not a hupai game snapshot of format {SNAPSHOT_FORMAT!r}: "
                             f"{snap.get('format')!r}")
        game = cls.__new__(cls)
        game.rules = rules or rules_module.get(snap["rules"], snap["options"])
        game._hooks = Hooks.of(game.rules)
        game.setup = dict(snap["setup"])
        if "wall" in game.setup:
            game.setup["wall"] = list(game.setup["wall"])
        game.table = Table.from_json(snap["table"])
        game._prefix = list(snap["actions"])
        game._actions = []
        game._events = []
        game._event_prefix = len(game._prefix)
        game._result = None
        game._legal = {}
        return game

    def _rebuild_history(self) -> None:
        """Recover the events (and result) of a restored game by replaying its setup and first actions."""
        if self._event_prefix is None:
            return
        past = Game._from_setup(self.rules, self.setup)
        for action in self._all_actions()[:self._event_prefix]:
            past.apply(action)
        self._events = past._events + self._events
        if self._result is None:
            self._result = past._result
        self._event_prefix = None
