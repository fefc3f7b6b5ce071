"""``SearchBot``: Monte Carlo search over sampled worlds (``"search"`` in ``simulate``, the CLI, the server and the
agent environments).

At a decision with more than one legal action it takes a few candidate actions (the best by a cheap prior:
:class:`~hupai.ev.EVBot`'s choice first, then the rule system's discard ranking; a discard of one kind is one
action already), and for each sampled world (:func:`hupai.worlds.sample`: the hidden tiles dealt at random
among the deals its observation allows) plays every candidate to the end of the hand with fast rollout
players for every seat (``rollout``: GreedyBot for mahjong, EVBot for Wai Huzi by default), on copies of the
same world (:func:`hupai.worlds.fork`) and with the same rollout seeds, so that candidates are compared on the
same deals. It keeps the prior's choice unless another candidate's mean payment to its seat beats it by more
than ``margin`` standard errors of the paired differences: a search of a few dozen rollouts is noisy, and the
prior is a good player.

Budgets: ``rollouts`` (a count per decision, all candidates together: deterministic, the same seed gives the
same choices) or ``budget_ms`` (anytime: it stops when the time is up, with the worlds played so far; before
one full world it keeps the prior's choice). A decision with one legal action returns it at once. It acts on an
:class:`~hupai.observation.Observation` only: the worlds are dealt from it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from . import rules as rules_module
from .actions import Action
from .belief import MatchedWorlds, WaitingWorlds, WorldWeights
from .bots import GreedyBot, _core_bot, _own_groups, _table_turn, _zipai_advice
from .errors import HupaiError
from .ev import KNOWN_WAIT, EVBot, _passed, _readiness, _seen, _shape_danger
from .game import play
from .observation import Observation
from .rules.base import Rules
from .rules.base_advice import Advice
from .worlds import fork, rules_of, sample

__all__ = ["SearchBot", "ROLLOUT_POLICIES", "WORLDS", "DECISIONS", "DANGERS"]


#: Rollout players by name: every seat of a rollout plays one of these.
ROLLOUT_POLICIES: dict[str, type[GreedyBot]] = {"greedy": GreedyBot, "ev": EVBot}
#: How a search deals its worlds: ``"uniform"`` (:func:`hupai.worlds.sample`'s uniform deal), ``"weighted"``
#: (each other seat's hand resampled by :class:`hupai.belief.WorldWeights`) or ``"matched"`` (each other seat's
#: hand dealt at a level drawn from real hands' shares, :class:`hupai.belief.MatchedWorlds`) or ``"waiting"``
#: (matched, with ready hands chosen by where they wait, :class:`hupai.belief.WaitingWorlds`).
WORLDS = ("uniform", "weighted", "matched", "waiting")
#: The dealers of the worlds that are not uniform, by name.
_DEALERS: dict[str, type[WorldWeights]] = {"weighted": WorldWeights, "matched": MatchedWorlds,
                                           "waiting": WaitingWorlds}
#: Which decisions a search plays out: ``"all"`` (every one with a choice) or ``"claims"`` (only a claim window's
#: or a robbing kong's: win or pass, pung, chow, kong on another seat's tile; at a turn the prior plays).
DECISIONS = ("all", "claims")
#: Which of a mahjong turn's discards a search may play instead of the prior's: ``"any"`` (every candidate) or
#: ``"guard"`` (only a tile no more dangerous than the prior's by EVBot's estimate of dealing in). In the Guangdong
#: audits the search's discard departures let another seat win at once five times as often on the true deal as
#: EVBot's discards, and its worlds, which deal too few ready hands, saw almost none of it.
DANGERS = ("any", "guard")


#: The settings a search plays where neither the bot's caller nor the rule system (its advice's ``search``) names
#: one: a margin of 3 standard errors, uniform worlds, every decision with a choice searched, any discard.
DEFAULTS: dict[str, Any] = {"margin": 3.0, "worlds": "uniform", "decisions": "all", "danger": "any"}


class _Playing(NamedTuple):
    """The settings a search plays in one rule system (:meth:`SearchBot.playing`)."""

    margin: float
    decisions: str
    danger: str
    weights: WorldWeights | None  # None: uniform worlds


def _settings(settings: dict[str, Any], whose: str) -> dict[str, Any]:
    """The settings named (None: not named), checked: a HupaiError names the first bad one and ``whose`` it is."""
    out: dict[str, Any] = {}
    for name, value in settings.items():
        if value is None:
            continue
        if name == "margin":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 100.0:
                raise HupaiError(f"margin must be a number from 0 to 100 (standard errors), got {value!r}")
            value = float(value)
        elif name in ("worlds", "decisions", "danger"):
            known = {"worlds": WORLDS, "decisions": DECISIONS, "danger": DANGERS}[name]
            if value not in known:
                raise HupaiError(f"unknown {name} {value!r} (known: {', '.join(known)})")
        else:
            raise HupaiError(f"{whose}: unknown search setting {name!r} (known: {', '.join(DEFAULTS)})")
        out[name] = value
    return out


class SearchBot:
    """Monte Carlo search over sampled worlds (see the module docstring).

    ``rollouts``: rollouts per decision (all candidates together; at least one world per candidate), or None
    to play by time; ``budget_ms``: the time budget of a decision when ``rollouts`` is None; ``top_k``: how many
    candidates the prior keeps; ``rollout``: the rollout players' policy (``"greedy"`` or ``"ev"``; None: greedy
    for mahjong, ev for Wai Huzi);
    ``margin``: how many standard errors a candidate must beat the prior's choice by (3: with five worlds a
    candidate and skewed payments, a smaller margin follows lucky worlds and loses to the prior); ``worlds``: how
    the other seats' hidden hands are dealt, ``"uniform"``, ``"weighted"`` (each seat's hand kept from
    ``candidates`` uniform deals in proportion to how well it explains that seat's play, :mod:`hupai.belief`) or
    ``"matched"`` (each seat's hand dealt at a level drawn from how near a win real hands with its turns and melds
    are, :class:`hupai.belief.MatchedWorlds`) or ``"waiting"`` (matched, a ready hand kept by where it waits,
    :class:`hupai.belief.WaitingWorlds`);
    ``decisions``: which decisions are searched, ``"all"`` or ``"claims"`` (:data:`DECISIONS`: in the audits a
    turn's departures from the prior were worth about nothing, a claim window's were where the gains were, and a
    claims-only search spends its budget there); ``danger``: ``"any"`` or ``"guard"`` (:data:`DANGERS`: a turn's
    discard other than the prior's is a candidate only if EVBot rates its tile no more dangerous)."""

    def __init__(self, seed: int = 0, *, rollouts: int | None = 16, budget_ms: float | None = None, top_k: int = 3,
                 rollout: str | None = None, margin: float | None = None, worlds: str | None = None,
                 candidates: int = 64, decisions: str | None = None, danger: str | None = None) -> None:
        if rollouts is None and budget_ms is None:
            raise HupaiError("SearchBot needs a budget: rollouts or budget_ms")
        if rollouts is not None and (type(rollouts) is not int or rollouts < 1):
            raise HupaiError(f"rollouts must be a positive int or None, got {rollouts!r}")
        if budget_ms is not None and not budget_ms >= 0:
            raise HupaiError(f"budget_ms must be a non-negative number or None, got {budget_ms!r}")
        if rollout is not None and rollout not in ROLLOUT_POLICIES:
            raise HupaiError(f"unknown rollout policy {rollout!r} (known: {', '.join(ROLLOUT_POLICIES)})")
        if type(top_k) is not int or top_k < 1:
            raise HupaiError(f"top_k must be a positive int, got {top_k!r}")
        if type(candidates) is not int or not 1 <= candidates <= 256:
            raise HupaiError(f"candidates must be an int from 1 to 256, got {candidates!r}")
        #: the settings given here: they hold in every rule system, over the one's own (``Advice.search``)
        self._given = _settings({"margin": margin, "worlds": worlds, "decisions": decisions, "danger": danger},
                                "SearchBot")
        self._rng = random.Random(seed)
        self.rollouts = rollouts
        self.budget_ms = budget_ms
        self.top_k = top_k
        self._policy = None if rollout is None else ROLLOUT_POLICIES[rollout]
        #: the settings where a rule system declares none of its own: those given, else :data:`DEFAULTS`
        fallback = {**DEFAULTS, **self._given}
        self.margin: float = fallback["margin"]
        self.worlds: str = fallback["worlds"]
        self.decisions: str = fallback["decisions"]
        self.danger: str = fallback["danger"]
        self._candidates_dealt = candidates
        #: how the other seats' hands are dealt where the bot plays its own settings: uniformly (None), by how
        #: well they explain their play, or at levels drawn from real hands' (matched)
        self._weights = None if self.worlds == "uniform" else _DEALERS[self.worlds](candidates)
        #: the settings a search plays in each rule system (by name): what was given, else the system's own
        self._by_system: dict[str, _Playing] = {}
        self._prior = EVBot(seed)
        self._rules: dict[Any, Rules] = {}
        #: rollout players by (policy, seats), built once and reseeded for every rollout: a new player would look
        #: its rule advice up again (in Wai Huzi a tenth of a search's time)
        self._players: dict[tuple[type[GreedyBot], int], list[GreedyBot]] = {}
        #: what the last searched decision did: (candidates, worlds played, seconds), for tests and tuning
        self.last: tuple[tuple[Action, ...], int, float] = ((), 0, 0.0)

    def playing(self, rules_name: str) -> _Playing:
        """The settings this bot searches with in the rule system ``rules_name``: each one given to it, else the
        system's own (its advice's ``search``, declared where the measurements chose it), else :data:`DEFAULTS`."""
        found = self._by_system.get(rules_name)
        if found is None:
            declared = _settings(dict(rules_module.advice(rules_name).search), f"{rules_name}'s advice")
            chosen = {**DEFAULTS, **declared, **self._given}
            weights = (None if chosen["worlds"] == "uniform" else self._weights if self.worlds == chosen["worlds"]
                       else _DEALERS[chosen["worlds"]](self._candidates_dealt))
            found = self._by_system[rules_name] = _Playing(chosen["margin"], chosen["decisions"], chosen["danger"],
                                                           weights)
        return found

    def choose(self, legal_actions: Sequence[Action]) -> Action | None:
        """A lone legal action needs no search (asked first by :func:`hupai.game.play`)."""
        return legal_actions[0] if len(legal_actions) == 1 else None

    def act(self, observation: Observation, budget_ms: float | None = None) -> Action:
        """The searched choice among ``observation.legal_actions``; ``budget_ms`` overrides the time budget of
        this decision (a server caps it below its turn timer)."""
        legal = observation.legal_actions
        if not legal:
            raise HupaiError(f"SearchBot: seat {observation.seat} has nothing to decide now "
                             f"(phase {observation.phase}, no legal action)")
        if len(legal) == 1:
            return legal[0]
        began = time.perf_counter()
        decision_seed = self._rng.getrandbits(64)  # drawn at every searched decision: the stream stays in step
        prior = self._prior.act(observation)
        candidates = self._candidates(observation, prior)
        if len(candidates) == 1:
            return candidates[0]
        limit = self.budget_ms if budget_ms is None else budget_ms
        deadline = None if limit is None or (self.rollouts is not None and budget_ms is None) else began + limit / 1000
        worlds = None if self.rollouts is None or budget_ms is not None else max(1, self.rollouts // len(candidates))
        try:
            totals, played = self._search(observation, candidates, decision_seed, worlds, deadline)
        except HupaiError:  # no world could be dealt from this observation: a fact the worlds do not model
            totals, played = [], 0
        self.last = (tuple(candidates), played, time.perf_counter() - began)
        if played < 2:
            return prior
        return candidates[_pick(totals, played, self.playing(observation.rules).margin)]

    def _candidates(self, observation: Observation, prior: Action) -> list[Action]:
        """The prior's choice, then the others by the rule system's ranking (a win always among them), top_k; the
        prior's choice alone at a decision this search does not play out (``decisions``)."""
        playing = self.playing(observation.rules)
        if playing.decisions == "claims" and observation.phase != "claim" and observation.phase != "rob":
            return [prior]
        legal = list(dict.fromkeys(observation.legal_actions))  # equal actions once
        ranked, shanten = _ranked(observation, legal)
        if prior in shanten:  # a discard further from a win than the prior's is not worth a rollout
            ranked = [a for a in ranked if a not in shanten or shanten[a] <= shanten[prior]]
        out = [prior] + [a for a in ranked if a != prior]
        if playing.danger == "guard" and prior.kind == "discard" and observation.phase == "turn" and shanten:
            dangers = _dangers(observation)
            limit = dangers[prior.tile]
            out = [a for a in out if a.kind != "discard" or dangers[a.tile] <= limit]
        wins = [a for a in out if a.kind == "win" and a not in out[:self.top_k]]
        return out[:max(1, self.top_k - len(wins))] + wins

    def _search(self, observation: Observation, candidates: list[Action], seed: int, worlds: int | None,
                deadline: float | None) -> tuple[list[list[float]], int]:
        """Per candidate, the payment to the seat in each world played; and how many worlds were played."""
        rng = random.Random(seed)
        rules = rules_of(observation, self._rules)
        seat = observation.seat
        totals: list[list[float]] = [[] for _ in candidates]
        played = attempts = 0
        weights = self.playing(observation.rules).weights
        # By default GreedyBot rolls out mahjong hands (twice as fast as EVBot there) and EVBot Wai Huzi hands (as
        # fast as GreedyBot there, and it keeps the 报听 bonus a greedy rollout would throw away, WH-38).
        policy = self._policy or (EVBot if rules.family == "zipai" else GreedyBot)
        players = self._players.get((policy, rules.num_players))
        if players is None:
            forms = _plain_turns(rules.name) if policy is GreedyBot and rules.family != "zipai" else None
            players = self._players[(policy, rules.num_players)] = [
                policy(0) if forms is None else _TableGreedy(0, forms) for _ in range(rules.num_players)]
        bound = [player for player in players if isinstance(player, _TableGreedy)]
        while worlds is None or attempts < worlds:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            attempts += 1
            world = sample(observation, rng, rules=rules, weights=weights)
            rollout_seed = rng.getrandbits(32)
            results: list[float] = []
            for action in candidates:
                if deadline is not None and time.perf_counter() >= deadline:
                    return totals, played
                game = fork(world)
                for greedy in bound:
                    greedy.table = game.table
                try:
                    game.apply(action)
                    for other, player in enumerate(players):  # as new players seeded rollout_seed + seat
                        player.reseed(rollout_seed + other)
                    result = play(game, players) if not game.over else game.result
                except HupaiError:  # the world's rules refuse a move (a hidden fact a world got wrong): skip it
                    results = []
                    break
                assert result is not None
                results.append(float(result.payments[seat]))
            if len(results) == len(candidates):  # a world refused by a candidate counts for none of them
                for per_candidate, paid in zip(totals, results, strict=True):
                    per_candidate.append(paid)
                played += 1
        return totals, played


def _plain_turns(rules_name: str) -> int | None:
    """The advice's winning forms (as the core takes them) if GreedyBot's turn in this rule system reads nothing
    but the seat's hand and melds: its advice ranks discards and wins as the plain advice does (Guangdong and
    Kawuxing; Yunxiao counts golds as jokers and reads the observation for them); else None."""
    advice = rules_module.advice(rules_name)
    plain = all(getattr(type(advice), name) is getattr(Advice, name) for name in ("rank_discards", "premium_discards"))
    return int(advice.forms) if plain else None


class _TableGreedy(GreedyBot):
    """A rollout's GreedyBot that plays its turn from the rollout's own table (``table``, set by the search for
    each rollout: a world it dealt itself, never the real game) instead of an observation. Under the plain advice
    (:func:`_plain_turns`) GreedyBot's turn reads only the seat's concealed counts and its number of melds, so
    the choice is the same, tie breaks included (the same random stream); building an observation for it was
    about a third of a rollout's time. Anything else (a claim, a declaration) goes to GreedyBot's ``act``."""

    def __init__(self, seed: int, forms: int) -> None:
        super().__init__(seed)  # the rule system's own advice for what ``act`` decides (a claim, a declaration)
        #: the rollout's table while it plays (set by the search before each rollout)
        self.table: Any = None
        self._plain_forms = forms  # the advice's winning forms, as the core takes them

    def _core_turns(self, rules: str) -> tuple[int, int, bytearray] | None:
        """The core plays this player's plain turns as :meth:`choose` would (GreedyBot's plain discard, kind 2)."""
        return _core_bot(self, _TableGreedy, 2, self._plain_forms)

    def choose(self, legal_actions: Sequence[Action]) -> Action | None:
        table = self.table
        if table is None:
            first = legal_actions[0]
            return first if len(legal_actions) == 1 and first.kind == "pass" else None
        return _table_turn(self._rng.state, self._plain_forms, table, legal_actions)


def _dangers(observation: Observation) -> list[float]:
    """EVBot's estimate of the danger of discarding each kind now (a mahjong turn): a shown hand's waits count
    ``KNOWN_WAIT``; another seat's hand, its readiness times the waiting shapes the kind could complete, unless
    it let the kind pass since its hand last changed."""
    seat = observation.seat
    advice = rules_module.advice(observation.rules)
    known = advice.known_waits(observation)
    unseen = [max(0, 4 - count) for count in _seen(observation)]
    passed = _passed(observation)
    shapes = [_shape_danger(kind, unseen) for kind in range(len(unseen))]
    out = [0.0] * len(unseen)
    for other in range(observation.num_players):
        if other == seat:
            continue
        waits = known.get(other)
        readiness = _readiness(observation, other) if waits is None else 0.0
        for kind in range(len(out)):
            if waits is not None:
                out[kind] += KNOWN_WAIT if kind in waits else 0.0
            elif kind not in passed[other]:
                out[kind] += readiness * shapes[kind]
    return out


def _pick(totals: list[list[float]], played: int, margin: float) -> int:
    """The candidate to play: the best mean if it beats the prior's (index 0) by ``margin`` standard errors of
    the paired differences, else the prior's."""
    means = [sum(values) / played for values in totals]
    best = max(range(len(totals)), key=lambda i: (means[i], -i))
    if best == 0:
        return 0
    differences = [b - a for a, b in zip(totals[0], totals[best], strict=True)]
    mean = sum(differences) / played
    variance = sum((d - mean) ** 2 for d in differences) / (played - 1)
    error = math.sqrt(variance / played)
    return best if mean > margin * error else 0


def _ranked(observation: Observation, legal: list[Action]) -> tuple[list[Action], dict[Action, int]]:
    """The legal actions, the rule system's best discards first (a cheap prior), others in their order; and, for
    a mahjong seat's discards, the shanten each leaves (the search keeps only those as good as its prior's)."""
    discards = [a for a in legal if a.kind == "discard" and not a.flag]
    if len(discards) < 2:
        return legal, {}
    shanten: dict[Action, int] = {}
    try:
        if len(observation.counts) == 34:
            advice = rules_module.advice(observation.rules)
            scores: list[Any] = list(advice.rank_discards(observation, discards))
            plain = type(advice).rank_discards is Advice.rank_discards  # the core's copies - 256 x shanten
            shanten = {a: -int(score // 256) if plain else -int(score)
                       for a, score in zip(discards, scores, strict=True)}
        else:
            zipai = _zipai_advice({}, observation)
            judged = zipai.rank_discards(bytes(observation.counts),
                                         _own_groups(observation.seat, observation.melds[observation.seat]))
            scores = [judged.get(a.tile) for a in discards]
            if any(score is None for score in scores):
                return legal, {}
    except HupaiError:
        return legal, {}
    order = sorted(range(len(discards)), key=lambda i: scores[i], reverse=True)
    ranked = [discards[i] for i in order]
    return ranked + [a for a in legal if a not in discards], shanten
