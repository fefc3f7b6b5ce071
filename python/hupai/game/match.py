"""``hupai.Match``: consecutive hands with dealer rotation, round winds and cumulative scores.

Hand ``i`` is dealt from the wall seed :func:`~hupai.game.state.wall.hand_seed` ``(seed, i)``: never the same wall
twice. The first dealer (the 东 seat, GD-4) is drawn from the match seed unless given. After each hand the
rules say who deals next (GD-31) and whether the round wind advances or the match ends (GD-6).

Without a seed, one is drawn from the OS (``secrets.randbits(64)``) and kept in :attr:`Match.seed` and
:meth:`Match.to_json`: like game logs and snapshots, that record holds every future wall and must never reach
a client.

A match between hands is stored whole by :meth:`Match.to_dict` and restored by :meth:`Match.from_dict` (format
``hupai-match/1``): the rules' name and options (those :meth:`Match.record` fixed included, Wai Huzi's session
神), the seed, claim window, first dealer, dealer, round wind, hands played, scores and whether it is over. The
finished hands' results are not part of it: :attr:`Match.results` lists the hands recorded by this object (since
it was made or restored); their logs are the record of each hand (a server stores them as they end).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from .. import rules as rules_module
from .._core import identity_index
from ..actions import Action
from ..errors import HupaiError, InvalidState
from ..jsonform import dict_in, json_text
from ..observation import Observation
from ..rules.base import Rules
from .game import _APPLYING, Game
from .mahjong.claims import CLAIM_WINDOWS
from .mahjong.flow import MahjongFlow
from .mahjong.observation import Observer
from .result import HandResult
from .state import validate
from .state.wall import hand_seed, splitmix64

__all__ = ["Match", "Player", "play", "play_until", "MATCH_FORMAT"]

#: The format tag of :meth:`Match.to_dict`.
MATCH_FORMAT = "hupai-match/1"


def _no_choice(legal_actions: Sequence[Action]) -> None:
    """The ``choose`` of a player that has none: it always needs its observation."""
    return None


def _known_nothing() -> dict[int, tuple[Action, ...]]:
    return {}


class _Stop(Exception):
    """Raised by the chooser :func:`play_until` gives the seat it stops at: the one check of that stop."""


def _stop(legal_actions: Sequence[Action]) -> None:
    raise _Stop


def _not_a_player(seat: int, player: object) -> Callable[[Observation], Action]:
    """The ``act`` of something given as a player without one: it refuses when first asked."""
    def act(observation: Observation) -> Action:
        raise HupaiError(f"play: the player at seat {seat} is {player!r}, not a player")
    return act


def _prepared(game: Game, flow: MahjongFlow, players: Sequence[Player | None], until: int) -> tuple[Any, ...]:
    """For a mahjong flow: (key, the bots for MahjongFlow._lean_chain, which goes on with their plain turns in the
    same crossing, or None, the seats' choosers, the seats' acts), worked out once a hand for the same players and
    stop seat (``play_until`` runs once a learner step in ``gym_env``: reading every player's methods and asking
    every bot at every call cost about what the core saved). The choosers hold the stop (the stop seat's chooser
    raises). Where the flow :attr:`~MahjongFlow.chains`, the bots (``_core_turns``: :mod:`hupai.bots`) say whether
    the core may play them, never the stop seat's; a GreedyBot's turns that the core did not reach (after a claim,
    the deal) read the table as well (``_table_chooser``): no observation is built for them. Nothing kept refers to
    the flow (the flow would be a reference cycle)."""
    key = (until, *players)
    cached: tuple[Any, ...] | None = flow.chained
    if cached is not None and cached[0] == key:
        return cached
    choosers = [getattr(player, "choose", _no_choice) for player in players]
    acts = [getattr(player, "act", None) or _not_a_player(s, player) for s, player in enumerate(players)]
    if 0 <= until < len(choosers):
        # The stop is ``until``'s chooser raising when first asked: the loop itself checks nothing per decision.
        choosers[until] = _stop
    chain = None
    if flow._lean and flow.chains:
        name = game.rules.name
        asks = [None if seat == until else getattr(player, "_core_turns", None)
                for seat, player in enumerate(players)]
        bots = tuple([None if ask is None else ask(name) for ask in asks])
        if any(bots):
            chain = bots
            for seat, bot in enumerate(bots):
                if bot is not None and bot[0] == 2:
                    choosers[seat] = players[seat]._table_chooser(flow.table, bot[1])  # type: ignore[union-attr]
    flow.chained = (key, chain, choosers, acts)  # (the lists are never changed: play_until only reads them)
    return flow.chained


class Player(Protocol):
    """Anything that picks an action from what its seat sees (the bots in :mod:`hupai.bots`): one of
    ``observation.legal_actions``.

    A player may also offer ``choose(legal_actions) -> Action | None``: the same decision when the legal
    actions alone settle it (always, for :class:`~hupai.bots.RandomBot`; a lone ``pass`` for
    :class:`~hupai.bots.GreedyBot`), else None. :func:`play` asks it first and builds the observation only
    when needed: most seats in a claim window that asks everyone can only pass, and an observation costs more
    than the engine's own work on such a decision.
    """

    def act(self, observation: Observation) -> Action: ...


def play(game: Game, players: Sequence[Player]) -> HandResult:
    """Drive ``game`` to its end, giving ``players[seat]`` the seat's observation whenever it must act (or its
    legal actions first, to a player with ``choose``: see :class:`Player`).

    An action that is one of the game's cached legal actions itself (the common case: a bot returns one of the
    engine's own objects) is applied here without the :meth:`Game.apply` frame, with its guarantees: the same
    identity check, the same busy guard while the flow works, the same refusal if the flow fails half-way; a
    mahjong flow's plain discard goes straight to its lean turn. Anything else goes through :meth:`Game.apply`."""
    play_until(game, players)
    result = game.result
    assert result is not None
    return result


def play_until(game: Game, players: Sequence[Player | None], seat: int = -1,
               observe: Callable[[int], Observation] | None = None, first: Action | None = None) -> bool:
    """:func:`play`, stopping when ``seat`` must act (its player is never asked, and may be None): True when the
    hand is over, False when it stopped at ``seat``. ``observe`` gives a seat's observation (default: an
    :class:`Observer` of the game, made when a player first needs one). An answer that is no legal action
    raises :class:`~hupai.IllegalAction` from :meth:`Game.apply`, the game as it was before that answer.

    ``first``: the action ``seat`` takes at its first decision here, ``seat`` being the one to act (one of its
    legal actions, which the caller checked: a learner's step in ``gym_env``). Applied by the same loop as the
    others' answers, so that a plain discard of it starts the core's run of the bots' plain turns
    (:meth:`MahjongFlow._lean_chain`) instead of a turn of its own."""
    until = seat
    flow = game._flow  # a game keeps its table object and its flow from start to end
    table = flow.table
    apply = game.apply
    legal = game.legal_actions
    flow_apply = flow.apply
    seats_to_act = flow.seats_to_act  # Game.seats_to_act without its call-compatible wrapper
    # A mahjong flow's lean turn (MahjongFlow._lean_turn: most actions of a simulated Guangdong hand), if it has one.
    lean_flow = flow if isinstance(flow, MahjongFlow) and flow._lean else None
    lean = None if lean_flow is None else lean_flow._lean_turn
    known_legal = _known_nothing if lean_flow is None else lean_flow.known_legal
    actions = game._actions  # the game's action list (the same object for the game's life)
    # Observer(game)'s view unless given, made at the first observation asked for (it freezes the hand's fixed
    # facts once; a player that decides from the legal actions alone never needs one)
    if isinstance(flow, MahjongFlow) and (until >= 0 or flow.chains):  # (play(): once a hand, nothing to keep)
        prepared = _prepared(game, flow, players, until)
        choosers: Sequence[Any] = prepared[2]
        acts: Sequence[Any] = prepared[3]
        if prepared[1] is not None:
            lean = partial(flow._lean_chain, prepared[1], actions)
    else:
        listed = [getattr(player, "choose", _no_choice) for player in players]
        if 0 <= until < len(listed):
            listed[until] = _stop  # (the stop: see _prepared)
        choosers = listed
        acts = [getattr(player, "act", None) or _not_a_player(s, player) for s, player in enumerate(players)]
    if first is not None and not 0 <= until < len(choosers):
        raise HupaiError(f"play_until: first is the action of the stop seat, and {until} is no seat")
    try:
        if first is not None:  # the stop seat's action, applied as the loop below applies a chosen one
            cache = game._legal
            if identity_index(cache.get(until) or legal(until), first) < 0:
                apply(first)
            else:
                game._legal = _APPLYING
                actions.append(first)
                try:
                    if lean is not None and first[0] == "discard" and not first[4]:
                        known = lean(first, until, first[2])
                        if known is None:
                            known = known_legal()
                    else:
                        known = flow_apply(first)
                except BaseException as error:
                    game._failed(first, error)
                game._legal = known
        while True:
            phase = table.phase
            if phase == "turn" or phase == "predraw":  # one seat decides: the common case, read directly
                seat = table.turn_seat
            else:  # a claim window: its seats answer one by one, in the order asked
                seats = seats_to_act()
                if not seats:
                    return True
                seat = seats[0]
            # The game's legal-action cache, read here without a call: after an action it usually holds the
            # next turn's discards already (see Game.apply). A busy or broken game's cache refuses (raises).
            cache = game._legal
            offered = cache.get(seat) or legal(seat)  # legal() caches its answer in the same dict
            action = choosers[seat](offered)
            if action is None:
                if observe is None:  # the observer's own view, without Observer.observe's frame around it
                    observe = partial(Observer(game).view, game)
                action = acts[seat](observe(seat))
            # Game.apply's fast path, inlined: the chosen action must be one of the cached legal actions itself, and
            # the cache still the one read above (every apply makes a new one: a player that changed the game
            # meanwhile takes the general path).
            if game._legal is not cache or identity_index(offered, action) < 0:
                apply(action)  # the general path: equal copies, dicts, illegal actions (which change nothing)
                continue
            game._legal = _APPLYING
            actions.append(action)
            try:
                if lean is not None and action[0] == "discard" and not action[4]:
                    known = lean(action, seat, action[2])
                    if known is None:
                        known = known_legal()
                else:
                    known = flow_apply(action)
            except BaseException as error:
                game._failed(action, error)
            game._legal = known
    except _Stop:
        return False


class Match:
    """A sequence of hands: call :meth:`new_game`, play it, :meth:`record` it; or :meth:`play` with bots."""

    def __init__(self, rules: str | Rules = "guangdong", seed: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 *, first_dealer: int | None = None, claim_window: str = "all") -> None:
        if isinstance(rules, str):
            rules = rules_module.get(rules, options)
        elif options is not None:
            raise HupaiError("options are given with a rule-system name; a rules object carries its own")
        if claim_window not in CLAIM_WINDOWS:
            raise HupaiError(f"claim_window must be one of {', '.join(CLAIM_WINDOWS)}, got {claim_window!r}")
        if seed is None:  # never a fixed default: every match would deal the same walls
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            raise HupaiError(f"seed must be an int in 0..2**64-1, got {seed!r}")
        self.rules = rules
        self.seed = seed
        self.claim_window = claim_window
        n = rules.num_players
        # GD-4 / YX-4 / KW-4: the first dealer is drawn at random, from the match seed; Wai Huzi's first dealer is
        # the first player to enter, P0 (WH-6).
        if first_dealer is None:
            first_dealer = 0 if rules.family == "zipai" else splitmix64(seed ^ 0xD1CE) % n
        self.first_dealer = first_dealer
        self.dealer = self.first_dealer
        self.round_wind = 0
        self.hand_index = 0
        self.scores = [0] * n
        self.results: list[HandResult] = []
        self.over = False

    def new_game(self) -> Game:
        """The next hand, dealt by the current dealer in the current round."""
        if self.over:
            raise HupaiError("the match is over")
        return Game(self.rules, seed=hand_seed(self.seed, self.hand_index), dealer=self.dealer,
                    round_wind=self.round_wind, first_dealer=self.first_dealer, claim_window=self.claim_window)

    def record(self, game: Game) -> HandResult:
        """Add a finished hand's payments to the scores and move the deal and the round on.

        The game must be this match's next hand: the same rule system and options, claim window, dealer, round
        wind and first dealer (:meth:`new_game` deals one). Anything else raises :class:`~hupai.HupaiError`
        and leaves the match as it was: another table's payments would move these scores."""
        if not all(hasattr(game, name) for name in ("rules", "setup", "claim_window", "result")):
            raise HupaiError(f"record takes a Game, got {type(game).__name__}")
        same = isinstance(game.rules, Rules) and game.rules.name == self.rules.name
        if not same or game.rules.options_dict() != self.rules.options_dict():
            raise HupaiError(f"the game is played under {game.rules.name} {game.rules.options_dict()}, not this "
                             f"match's {self.rules.name} {self.rules.options_dict()}")
        expected = {"dealer": self.dealer, "round_wind": self.round_wind, "first_dealer": self.first_dealer}
        for key, value in expected.items():
            if game.setup[key] != value:
                raise HupaiError(f"the game's {key} is {game.setup[key]}, but this match's next hand has {value}")
        if game.claim_window != self.claim_window:
            raise HupaiError(f"the game's claim window is {game.claim_window!r}, this match's "
                             f"{self.claim_window!r}")
        result = game.result
        if result is None:
            raise HupaiError("the hand is not over yet")
        self.scores = [a + b for a, b in zip(self.scores, result.payments, strict=True)]
        self.results.append(result)
        self.round_wind, self.over = self.rules.next_round(self.round_wind, self.dealer, result.next_dealer,
                                                           self.first_dealer)
        self.dealer = result.next_dealer
        self.hand_index += 1
        shen = getattr(game.table, "shen", None) if self.rules.family == "zipai" else None
        if shen is not None and self.rules.options_dict().get("shen") is None:
            # WH-5: the session's 神, drawn in its first hand, holds for every later hand: they are dealt with it
            # fixed as their option (so each hand's log replays on its own).
            self.rules = type(self.rules)({**self.rules.options_dict(), "shen": shen})  # type: ignore[call-arg]
        return result

    def play(self, players: Sequence[Player], hands: int | None = None) -> list[HandResult]:
        """Play ``hands`` more hands (or until the match ends) with ``players``; returns their results."""
        out: list[HandResult] = []
        while not self.over and (hands is None or len(out) < hands):
            out.append(self.record_played(players))
        return out

    def record_played(self, players: Sequence[Player]) -> HandResult:
        game = self.new_game()
        play(game, players)
        return self.record(game)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Everything the match carries from one hand to the next, as plain JSON data (format
        ``hupai-match/1``); :meth:`from_dict` restores it. Holds the seed, so every future wall: server-side
        only, never for a client."""
        return {"format": MATCH_FORMAT, "rules": self.rules.name, "options": self.rules.options_dict(),
                "seed": self.seed, "first_dealer": self.first_dealer, "dealer": self.dealer,
                "round_wind": self.round_wind, "hands": self.hand_index, "scores": list(self.scores),
                "over": self.over, "claim_window": self.claim_window}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, rules: Rules | None = None) -> Match:
        """The match :meth:`to_dict` wrote: it deals and records its next hands exactly as the original would.

        The rules are rebuilt from the stored name and options (the options :meth:`record` fixed, such as Wai
        Huzi's session 神, included), or taken from ``rules`` (a rule system outside the registry; its name and
        options must be the stored ones). The data is read as untrusted: anything :meth:`to_dict` would not
        write raises :class:`~hupai.InvalidState` naming the field (see
        :func:`hupai.game.state.validate.check_match`)."""
        rules, fields = validate.check_match(data, MATCH_FORMAT, rules)
        match = cls(rules, seed=fields["seed"], first_dealer=fields["first_dealer"],
                    claim_window=fields["claim_window"])
        match.dealer = fields["dealer"]
        match.round_wind = fields["round_wind"]
        match.hand_index = fields["hands"]
        match.scores = fields["scores"]
        match.over = fields["over"]
        return match

    @classmethod
    def from_json(cls, data: str | bytes | bytearray | Mapping[str, Any], *, rules: Rules | None = None) -> Match:
        """:meth:`from_dict` of JSON text (size-limited) or of the dict itself."""
        return cls.from_dict(dict_in(data, "match", error=InvalidState), rules=rules)
