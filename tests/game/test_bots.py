"""Bots: RandomBot is seeded and uniform; GreedyBot wins, claims and discards by shanten; both act on an
Observation alone, which holds nothing of another seat's concealed tiles."""

import gc
import json
from collections import Counter
from types import MappingProxyType

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Action, Game, play
from hupai.game.scripted import stacked_game
from hupai.observation import Observation


def test_random_bot_is_seeded():
    def log(seed):
        game = Game("guangdong", seed=1)
        play(game, [RandomBot(seed + i) for i in range(4)])
        return game.to_json()
    assert log(5) == log(5)
    assert log(5) != log(6)


def test_random_bot_is_uniform():
    game = Game("guangdong", seed=2)
    legal = game.legal_actions(0)
    bot = RandomBot(0)
    observation = game.observation(0)
    counts = Counter(bot.act(observation) for _ in range(14000))
    assert set(counts) == set(legal)
    expected = 14000 / len(legal)
    assert all(abs(c - expected) < 0.15 * expected for c in counts.values())


def test_greedy_bot_wins_when_it_can():
    game = stacked_game(["123m456p789s111z55s", "", "", ""])
    assert GreedyBot(0).act(game.observation(0)) == Action("win", 0, hupai.parse("5s")[0])


def test_greedy_bot_discards_to_lower_shanten():
    # 123m 456p 789s 11z 23s + an isolated 9m: discarding 9m keeps the hand ready (shanten 0).
    game = stacked_game(["123m456p789s11z23s9m", "", "", ""])
    action = GreedyBot(0).act(game.observation(0))
    assert action == Action("discard", 0, hupai.parse("9m")[0])


def test_greedy_bot_prefers_more_improving_tiles():
    # Both 1z and 9m are isolated; after either discard the shanten is the same. 1z has fewer neighbours, but
    # the bot counts improving draws: keeping 9m (89m-ish shapes) vs 1z (only a pair) -> discard 1z.
    game = stacked_game(["123m456p78s1z9m24p58s", "", "", ""])
    action = GreedyBot(0).act(game.observation(0))
    assert action.kind == "discard" and action.tile == hupai.parse("1z")[0]


def test_greedy_bot_claims_when_it_lowers_shanten():
    """Over random claim windows: GreedyBot claims iff a claim lowers its shanten (checked independently)."""
    checked = {"claim": 0, "pass": 0}
    for seed in range(25):
        game = Game("guangdong", seed=seed)
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while not game.over:
            decision = game.current
            if decision.phase == "claim":
                for seat in decision.seats:
                    legal = game.legal_actions(seat)
                    claims = [a for a in legal if a.kind in ("chow", "pung", "kong")]
                    if not claims or any(a.kind == "win" for a in legal):
                        continue
                    hand = game.hand(seat)
                    melds = len(game.table.melds[seat])
                    now = hupai.shanten(bytes_counts(hand), melds=melds, forms=game.rules.win_forms)
                    best = min(after_claim(hand, melds, a, game.rules.win_forms) for a in claims)
                    choice = GreedyBot(0).act(game.observation(seat))
                    if best < now:
                        assert choice in claims
                        checked["claim"] += 1
                    else:
                        assert choice.kind == "pass"
                        checked["pass"] += 1
            seat = decision.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert checked["claim"] > 5 and checked["pass"] > 5


def test_greedy_bot_hands_the_advice_read_only_meld_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim window's meld counts (the hand's melds, then one more per claim) are one read-only array per shape,
    made once (a numpy array built per claim cost about as much as the core's shanten of the rows): the advice
    gets the same object for the same shape and cannot write into it, and the choice is what it was."""
    from hupai.rules.base_advice import Advice

    seen: list = []
    shanten = Advice.shanten

    def recording(self, observation, rows, melds):
        seen.append(melds)
        assert list(melds) == [len(observation.melds[observation.seat])] + [melds[0] + 1] * (len(rows) - 1)
        with pytest.raises(ValueError, match="read-only"):
            melds[0] = 9
        return shanten(self, observation, rows, melds)

    monkeypatch.setattr(Advice, "shanten", recording)
    for seed in range(6):
        play(Game("guangdong", seed=seed, claim_window="eligible"), [GreedyBot(seed * 4 + i) for i in range(4)])
    shapes = {(int(melds[0]), len(melds)): melds for melds in seen}
    assert len(seen) > 20 and len(shapes) >= 2
    assert all(melds is shapes[int(melds[0]), len(melds)] for melds in seen)


def bytes_counts(counts):
    import numpy as np
    return np.array(counts, dtype=np.uint8)


def after_claim(hand, melds, action, forms):
    counts = list(hand)
    if action.kind == "chow":
        for kind in action.tiles:
            if kind != action.tile:
                counts[kind] -= 1
    else:
        counts[action.tile] -= 3 if action.kind == "kong" else 2
    return hupai.shanten(bytes_counts(counts), melds=melds + 1, forms=forms)


def test_greedy_bots_win_more_than_random_bots():
    wins = {RandomBot: 0, GreedyBot: 0}
    for bot in wins:
        for seed in range(15):
            game = Game("guangdong", seed=seed)
            play(game, [bot(seed * 4 + i) for i in range(4)])
            wins[bot] += bool(game.result.winners)
    assert wins[GreedyBot] > wins[RandomBot] and wins[GreedyBot] >= 10


def test_the_deprecated_call_with_a_game_warns_and_decides_the_same():
    game = Game("guangdong", seed=4)
    for bot_class in (RandomBot, GreedyBot):
        expected = bot_class(3).act(game.observation(0))
        with pytest.warns(DeprecationWarning, match="game.observation"):
            assert bot_class(3).act(game, 0) == expected


class Spy:
    """Wraps a bot: checks every observation it is handed before passing it on."""

    def __init__(self, bot, game: Game) -> None:
        self.bot = bot
        self.game = game  # the test's, to check against; the bot never sees it
        self.checked = 0

    def act(self, observation: Observation) -> Action:
        table = self.game.table
        seat = observation.seat
        assert list(observation.hand) == table.concealed_kinds(seat)
        data = observation.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert Observation.from_json(data) == observation
        # Nothing an observation reaches is the engine's, or mutable: so nothing in it reads another hand.
        assert not _reaches_mutable(observation)
        for other in range(table.num_players):
            kinds = table.concealed_kinds(other)
            if other != seat and len(kinds) > 4:
                # Another seat's concealed tiles appear nowhere as a list (its size does, as a number).
                assert json.dumps(kinds)[1:-1] not in json.dumps(data), (other, kinds)
        self.checked += 1
        return self.bot.act(observation)


def _reaches_mutable(root: object) -> list[object]:
    """Objects reachable from ``root`` that are mutable containers or engine objects."""
    bad, seen, todo = [], set(), [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, (type, str, int, float, bytes)):
            continue
        seen.add(id(item))
        if isinstance(item, MappingProxyType):  # read-only: its own dict (a copy) is not reachable through it
            todo.extend(item.values())
            continue
        if isinstance(item, (list, dict, set, bytearray, Game)) or type(item).__name__ == "Table":
            bad.append(item)
        todo.extend(gc.get_referents(item))
    return bad


@pytest.mark.parametrize("rules", ["guangdong", "yunxiao"])
def test_bots_see_nothing_of_other_seats_concealed_tiles(rules):
    checked = 0
    for seed in range(6):
        game = Game(rules, seed=seed, dealer=seed % 4)
        spies = [Spy((GreedyBot if (seat + seed) % 2 else RandomBot)(seed * 4 + seat), game) for seat in range(4)]
        play(game, spies)
        checked += sum(spy.checked for spy in spies)
    assert checked > 200


def test_greedy_bot_plays_by_its_rule_systems_advice():
    """The registry: Guangdong's advice judges hands in its forms; a system without advice gets plain tiles."""
    assert hupai.rules.advice("guangdong").forms == hupai.rules.get("guangdong").win_forms
    assert hupai.rules.advice("yunxiao").forms == hupai.rules.get("yunxiao").win_forms
    assert hupai.rules.advice("no_such_system").forms == hupai.Forms.STANDARD


@pytest.mark.parametrize("rules", ["guangdong", "yunxiao"])
def test_choose_decides_as_act_does_when_it_decides(rules):
    """play() asks a bot's choose(legal actions) first: where it answers, it answers what act would."""
    answered = 0
    for seed in range(4):
        game = Game(rules, seed=seed)
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while not game.over:
            for seat in game.seats_to_act:
                observation = game.observation(seat)
                choice = GreedyBot(seed).choose(observation.legal_actions)
                if choice is not None:
                    assert choice == GreedyBot(seed).act(observation)
                    answered += 1
                twin, again = RandomBot(seat), RandomBot(seat)
                assert twin.choose(observation.legal_actions) == again.act(observation)
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert answered > 50


@pytest.mark.parametrize("make", [RandomBot, GreedyBot])
def test_a_reseeded_bot_plays_as_a_new_bot_of_that_seed(make):
    """``reseed`` restarts the random stream (a search reseeds its rollout players instead of building new ones):
    bots that played a hand and were reseeded play the next exactly as new bots of those seeds."""
    def log(bots):
        game = Game("guangdong", seed=3)
        play(game, bots)
        return game.to_json()
    used = [make(100 + seat) for seat in range(4)]
    log(used)
    for seat, bot in enumerate(used):
        bot.reseed(seat)
    fresh = log([make(seat) for seat in range(4)])
    assert log(used) == fresh
    assert log([make(50 + seat) for seat in range(4)]) != fresh  # the seeds matter in this hand
