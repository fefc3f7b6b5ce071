"""SearchBot (hupai.search): the one-action fast path, determinism for a budget in rollouts, the time budget,
and a search that finds an obviously winning action the prior would not take."""

from __future__ import annotations

import dataclasses
import time

import pytest
from hupai.actions import Action
from hupai.belief import MatchedWorlds, WaitingWorlds, WorldWeights
from hupai.bots import GreedyBot
from hupai.errors import HupaiError
from hupai.game import Game, play
from hupai.game.scripted import discard, stacked_game
from hupai.observation import Observation
from hupai.search import SearchBot


class _Discarding:
    """A prior that never wins: the search alone must find the win."""

    def act(self, observation: Observation) -> Action:
        return next(a for a in observation.legal_actions if a.kind in ("discard", "pass"))


def _searcher(**budget: object) -> SearchBot:
    bot = SearchBot(3, **budget)  # type: ignore[arg-type]
    bot._prior = _Discarding()  # type: ignore[assignment]
    return bot


def test_a_self_drawn_win_is_found_over_a_discard() -> None:
    game = stacked_game(["123m456p789s111z55s", "", "", ""])  # 天和: the dealer's dealt hand wins (GD-20)
    observation = game.observation(0)
    assert observation.legal_actions[0].kind == "win"
    bot = _searcher(rollouts=12, top_k=2)
    assert bot.act(observation).kind == "win"
    assert bot.last[1] >= 2  # it searched: worlds played


def test_a_discard_win_is_found_over_a_pass() -> None:
    game = stacked_game(["1z", "123m456p789s11z55s", "", ""])
    discard(game, "1z", then_pass=False)  # seat 1 may win on it (a 双碰 wait on 1z or 5s)
    observation = game.observation(1)
    assert {a.kind for a in observation.legal_actions} >= {"win", "pass"}
    assert _searcher(rollouts=12).act(observation).kind == "win"


def test_one_legal_action_returns_at_once() -> None:
    game = stacked_game(["1z", "123m456p789s11z55s", "", ""])
    observation = game.observation(0)
    bot = SearchBot(1, rollouts=1000)
    legal = (observation.legal_actions[0],)
    lone = dataclasses.replace(observation, legal_actions=legal)
    began = time.perf_counter()
    assert bot.act(lone) is legal[0]
    assert time.perf_counter() - began < 0.05 and bot.last == ((), 0, 0.0)
    assert bot.choose(legal) is legal[0] and bot.choose(observation.legal_actions) is None


@pytest.mark.parametrize("worlds", ["uniform", "weighted", "matched", "waiting"])
@pytest.mark.parametrize("rules", ["guangdong", "waihuzi"])
def test_same_seed_same_choices(rules: str, worlds: str) -> None:
    logs = []
    for _ in range(2):
        game = Game(rules, seed=21, claim_window="eligible")
        n = game.rules.num_players
        play(game, [SearchBot(5, rollouts=4, worlds=worlds)] + [GreedyBot(seat) for seat in range(1, n)])
        logs.append(game.to_json())
    assert logs[0] == logs[1]


def test_weighted_worlds_are_what_the_search_plays_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import hupai.search as search

    given: list[object] = []
    real_sample = search.sample

    def sample(observation: Observation, rng: object, **settings: object) -> Game:
        given.append(settings["weights"])
        return real_sample(observation, rng, **settings)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "sample", sample)
    game = Game("guangdong", seed=4, claim_window="eligible")
    for worlds, kind in (("uniform", type(None)), ("weighted", WorldWeights), ("matched", MatchedWorlds),
                         ("waiting", WaitingWorlds)):
        bot = SearchBot(7, rollouts=6, worlds=worlds, candidates=5)
        given.clear()
        while not given:
            seat = game.seats_to_act[0]
            game.apply(bot.act(game.observation(seat)))
        weights = given[0]
        assert type(weights) is kind and (weights is None or getattr(weights, "candidates", None) == 5)
    with pytest.raises(HupaiError, match="unknown worlds"):
        SearchBot(worlds="soft")


@pytest.mark.parametrize("worlds", ["uniform", "matched", "waiting"])
def test_time_budget_is_kept(worlds: str) -> None:
    game = Game("guangdong", seed=8, claim_window="eligible")
    observation = game.observation(game.seats_to_act[0])
    bot = SearchBot(2, rollouts=None, budget_ms=30, worlds=worlds)
    began = time.perf_counter()
    bot.act(observation)
    spent = time.perf_counter() - began
    assert spent < 0.03 + 0.25  # the budget, and at most one rollout begun before it ran out (a busy machine)
    assert bot.act(observation, budget_ms=0) == bot._prior.act(observation)  # no time: the prior's choice


def test_budgets_are_checked() -> None:
    with pytest.raises(HupaiError, match="budget"):
        SearchBot(rollouts=None, budget_ms=None)
    with pytest.raises(HupaiError, match="rollouts"):
        SearchBot(rollouts=0)
    with pytest.raises(HupaiError, match="rollout policy"):
        SearchBot(rollout="mcts")


@pytest.mark.parametrize("rules", ["guangdong", "waihuzi"])
def test_every_candidate_is_played_on_the_same_worlds_with_the_same_rollout_seeds(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: in each sampled world every candidate is played from a copy of that one world, by
    rollout players seeded alike, so the candidates' payments differ by what the candidates do, not by the deal."""
    import hupai.search as search

    forked: list[int] = []
    seeds: list[tuple[int, ...]] = []
    real_fork, real_play = search.fork, search.play

    def fork(world: Game) -> Game:
        forked.append(id(world))
        return real_fork(world)

    def play_seeds(game: Game, players: list[GreedyBot]) -> object:
        seeds.append(tuple(player._rng.getstate()[1][:4] for player in players))
        return real_play(game, players)

    monkeypatch.setattr(search, "fork", fork)
    monkeypatch.setattr(search, "play", play_seeds)
    game = Game(rules, seed=4, claim_window="eligible")
    bot = SearchBot(7, rollouts=12)
    for _ in range(60):  # the first decision the search plays out
        seat = game.seats_to_act[0]
        observation = game.observation(seat)
        forked.clear()
        seeds.clear()
        chosen = bot.act(observation)
        if forked:
            break
        game.apply(chosen)
    candidates, worlds, _ = bot.last
    assert len(candidates) >= 2 and worlds >= 2 and len(forked) == len(candidates) * worlds
    for world in range(worlds):
        block = slice(world * len(candidates), (world + 1) * len(candidates))
        assert len(set(forked[block])) == 1  # one world for every candidate
        if len(seeds) == len(forked):  # no candidate ended the hand at once: each was rolled out
            assert len(set(seeds[block])) == 1  # and the same rollout seeds
    firsts = forked[::len(candidates)]
    # a new world each time (the last one is still alive while the next is dealt, so their ids differ)
    assert all(a != b for a, b in zip(firsts[:-1], firsts[1:], strict=True))


@pytest.mark.parametrize("rules,table_turns", [("guangdong", True), ("kawuxing", True), ("yunxiao", False)])
def test_rollouts_from_the_table_play_as_greedybot(rules: str, table_turns: bool) -> None:
    """Where the rule system's advice is plain at a turn, the search's rollout players take their turns from the
    rollout's own table (no observation); every payment of every candidate in every world is what GreedyBots
    playing from observations get, tie breaks included."""
    from hupai.ev import EVBot
    from hupai.search import _TableGreedy

    game = Game(rules, seed=41, claim_window="eligible")
    n = game.rules.num_players
    fast = SearchBot(1, rollouts=9)
    slow = SearchBot(1, rollouts=9)
    slow._players[(GreedyBot, n)] = [GreedyBot(0) for _ in range(n)]
    bots = [EVBot(seat) for seat in range(n)]
    searched = 0
    while not game.over and searched < 6:
        seat = game.seats_to_act[0]
        observation = game.observation(seat)
        chosen = bots[seat].act(observation)
        candidates = fast._candidates(observation, chosen) if len(observation.legal_actions) > 1 else []
        if len(candidates) > 1:
            assert fast._search(observation, candidates, 5, 3, None) == slow._search(observation, candidates, 5, 3,
                                                                                     None)
            searched += 1
        game.apply(chosen)
    assert searched == 6
    assert all(isinstance(player, _TableGreedy) == table_turns for player in fast._players[(GreedyBot, n)])


@pytest.mark.parametrize("rules", ["yunxiao", "waihuzi"])
def test_a_claims_only_search_searches_claim_windows_alone(rules: str) -> None:
    """``decisions="claims"``: a turn plays the prior's (EVBot's) choice without a world; a claim window with a
    choice is searched. The same seed gives the same hand."""
    from hupai.ev import EVBot

    game = Game(rules, seed=23, claim_window="eligible")
    bot = SearchBot(3, rollouts=6, decisions="claims")
    prior = EVBot(3)
    phases = {"turn": 0, "claim": 0}
    while not game.over:
        seat = game.seats_to_act[0]
        observation = game.observation(seat)
        if seat or len(observation.legal_actions) < 2:
            game.apply(GreedyBot(seat).act(observation))
            continue
        bot.last = ((), 0, 0.0)
        action = bot.act(observation)
        expected = prior.act(observation)  # the prior is asked at every decision with a choice, in step
        if observation.phase == "turn":
            assert action == expected and bot.last[1] == 0
        if observation.phase in phases and bot.last[1]:
            phases[observation.phase] += 1
        game.apply(action)
    assert phases["turn"] == 0 and phases["claim"] > 0
    with pytest.raises(HupaiError, match="unknown decisions"):
        SearchBot(0, decisions="turns")


def test_a_guarded_search_keeps_discards_no_more_dangerous_than_the_priors() -> None:
    """``danger="guard"``: at a turn, every discard candidate but the prior's is one EVBot rates no more dangerous
    than the prior's; an unguarded search offers more dangerous ones in the same hand, and a guarded search is
    deterministic for a seed."""
    from hupai.ev import EVBot
    from hupai.search import _dangers

    game = Game("guangdong", seed=5, claim_window="eligible")
    guarded, unguarded = SearchBot(1, danger="guard"), SearchBot(1)
    bots = [EVBot(seat) for seat in range(4)]
    riskier = 0
    while not game.over:
        seat = game.seats_to_act[0]
        observation = game.observation(seat)
        prior = bots[seat].act(observation)
        if observation.phase == "turn" and prior.kind == "discard" and len(observation.legal_actions) > 1:
            dangers = _dangers(observation)
            kept = guarded._candidates(observation, prior)
            assert kept[0] == prior
            assert all(dangers[a.tile] <= dangers[prior.tile] for a in kept if a.kind == "discard")
            riskier += any(a.kind == "discard" and dangers[a.tile] > dangers[prior.tile]
                           for a in unguarded._candidates(observation, prior))
        game.apply(prior)
    assert riskier > 0

    def choices(seed: int) -> list[Action]:
        game = Game("guangdong", seed=11, claim_window="eligible")
        bot = SearchBot(seed, rollouts=6, margin=0.0, danger="guard")
        out = []
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            action = bot.act(observation) if seat == 0 else GreedyBot(seat).act(observation)
            out.append(action)
            game.apply(action)
        return out

    assert choices(4) == choices(4)
    with pytest.raises(HupaiError, match="unknown danger"):
        SearchBot(0, danger="safe")


def test_a_rule_system_declares_its_own_search_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings not given to the bot come from the rule system's advice (``Advice.search``), else DEFAULTS; a
    setting given to the bot holds in every system; a malformed declaration is a clear error."""
    import hupai
    from hupai import rules as rules_module
    from hupai.search import DEFAULTS

    for name in hupai.rules.names():  # every declared setting is well formed
        playing = SearchBot(0).playing(name)
        assert {**DEFAULTS, **rules_module.advice(name).search}["margin"] == playing.margin
    kawuxing = SearchBot(0).playing("kawuxing")  # Kawuxing's own, measured against EVBot (docs/bots.md)
    assert (kawuxing.margin, kawuxing.decisions, kawuxing.danger) == (1.5, "all", "any") and kawuxing.weights
    assert SearchBot(0, worlds="uniform").playing("kawuxing").weights is None
    advice = type(rules_module.advice("yunxiao"))
    monkeypatch.setattr(advice, "search", {"margin": 1.5, "worlds": "weighted", "decisions": "claims"})
    bot = SearchBot(3, rollouts=6)
    playing = bot.playing("yunxiao")
    assert (playing.margin, playing.decisions, playing.danger) == (1.5, "claims", "any")
    assert playing.weights is not None and bot._weights is None
    assert bot.playing("guangdong") == (3.0, "all", "any", None)
    given = SearchBot(3, rollouts=6, margin=2.0, worlds="uniform").playing("yunxiao")
    assert (given.margin, given.decisions, given.weights) == (2.0, "claims", None)
    game = Game("yunxiao", seed=23, claim_window="eligible")
    observation = game.observation(game.seats_to_act[0])
    assert observation.phase == "turn" and len(observation.legal_actions) > 1
    bot.act(observation)
    assert bot.last[1] == 0  # the declared claims-only search plays the prior's choice at a turn
    monkeypatch.setattr(advice, "search", {"margin": -1})
    with pytest.raises(HupaiError, match="margin must be"):
        SearchBot(0).playing("yunxiao")
    monkeypatch.setattr(advice, "search", {"budget": 5})
    with pytest.raises(HupaiError, match="yunxiao's advice: unknown search setting"):
        SearchBot(0).playing("yunxiao")
