"""The ``claim_window`` setting (issue 8, item 7): ``"all"`` asks every other seat about every discard (and every
robbable kong), so that who is asked reveals nothing; ``"eligible"`` asks only seats with a claim. The two play
the same hands: the extra seats can only pass."""

import hupai
import pytest
from hupai.bots import RandomBot
from hupai.errors import HupaiError
from hupai.game import Action, Game, play


def _play_eligible(name: str, seed: int) -> Game:
    n = hupai.rules.get(name).num_players
    game = Game(name, seed=seed, dealer=seed % n, claim_window="eligible")
    play(game, [RandomBot(seed * 4 + i) for i in range(n)])
    return game


def _same_hand_asking_all(game: Game) -> Game:
    """Replay ``game``'s actions with ``claim_window="all"``: every seat asked beyond them passes."""
    other = Game(game.rules, seed=game.setup["seed"], dealer=game.setup["dealer"], claim_window="all")
    for action in game.actions:
        while action not in other.legal_actions(action.seat):
            assert other.current.phase in ("claim", "rob", "predraw")
            seats = other.current.seats
            passer = next((seat for seat in seats if seat != action.seat), seats[0])
            assert other.legal_actions(passer) == (Action("pass", passer),)
            other.apply(Action("pass", passer))
        other.apply(action)
    while not other.over:  # the last window may still wait for passes
        other.apply(Action("pass", other.current.seats[0]))
    return other


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing"])
@pytest.mark.parametrize("seed", range(12))
def test_all_plays_the_same_hand_as_eligible(name, seed):
    eligible = _play_eligible(name, seed)
    everyone = _same_hand_asking_all(eligible)
    assert everyone.result.payments == eligible.result.payments
    assert everyone.result.winners == eligible.result.winners
    assert everyone.result.patterns == eligible.result.patterns
    # "all" opens a rob window (a "rob" event) on every robbable kong; otherwise the same events.
    assert [e for e in everyone.events if e.type != "rob"] == [e for e in eligible.events if e.type != "rob"]


def test_yunxiao_asks_before_the_draw_on_public_facts_alone():
    """YX-30 抢金 is open to a non-dealer waiting on the gold at its first turn: with "all", every non-dealer is
    asked before its first draw (while nobody has claimed), so being asked shows nothing of its hand."""
    for seed in range(10):
        game = Game("yunxiao", seed=seed, dealer=0)
        bots = [RandomBot(seed + i) for i in range(4)]
        asked = set()
        while not game.over and game.table.calls == 0 and min(game.table.draws[1:]) == 0:
            decision = game.current
            if decision.phase == "predraw":
                asked.add(decision.seats[0])
            seat = decision.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
        if game.table.calls == 0:
            assert asked == {1, 2, 3}


@pytest.mark.parametrize("seed", range(8))
def test_all_asks_every_other_seat_after_every_discard(seed):
    game = Game("guangdong", seed=seed)
    assert game.claim_window == "all"  # the default: what a server needs
    bots = [RandomBot(seed + i) for i in range(4)]
    windows = 0
    while not game.over:
        decision = game.current
        if decision.phase in ("claim", "rob") and len(game.table.answers) == 0:
            windows += decision.phase == "claim"
            source = decision.source
            assert decision.seats == tuple((source + i) % 4 for i in (1, 2, 3))
            for seat in decision.seats:
                assert game.legal_actions(seat)[-1] == Action("pass", seat)
        seat = decision.seats[0]
        game.apply(bots[seat].act(game.observation(seat)))
    discards = sum(1 for a in game.actions if a.kind == "discard")
    assert windows == discards  # a window after every discard, claim or no claim


def test_the_window_is_in_the_log_and_replays():
    game = Game("guangdong", seed=4)
    play(game, [RandomBot(i) for i in range(4)])
    log = game.to_json()
    assert '"claim_window":"all"' in log
    assert Game.replay(log).claim_window == "all"
    assert Game.replay(log).to_json() == log
    eligible = _play_eligible("guangdong", 4)
    assert "claim_window" not in eligible.to_json()  # absent means eligible: every earlier log's meaning
    assert Game.replay(eligible.to_json()).claim_window == "eligible"
    restored = Game.from_snapshot(game.snapshot())
    assert restored.claim_window == "all"


def test_claim_window_is_validated():
    with pytest.raises(HupaiError, match="claim_window"):
        Game("guangdong", seed=1, claim_window="some")
    with pytest.raises(HupaiError, match="claim_window"):
        hupai.Match("guangdong", seed=1, claim_window=None)
