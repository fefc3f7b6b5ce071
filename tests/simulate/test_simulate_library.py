"""``hupai.simulate``: the same seed gives the same result for any workers, the totals are exact and mergeable,
mixed tables and factories work, every rule system runs, logs replay, Ctrl-C keeps what finished."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import hupai
import pytest
from hupai.bots import RandomBot
from hupai.game import Game
from hupai.simulate import SimulationSpec, Stats, run_chunk
from hupai.simulate.chunk import resolve_bots
from hupai.simulate.stats import mean_interval, wilson_interval


def _without_run(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.to_dict()
    data.pop("run")
    return data


def seeded_random_bot(seed: int) -> RandomBot:
    """A module-level factory: it pickles, so worker processes can build it."""
    return RandomBot(seed + 1)


@pytest.mark.parametrize("rules", ["guangdong", "kawuxing", "waihuzi"])
def test_same_seed_same_result_for_1_2_and_3_workers(rules: str) -> None:
    if rules not in hupai.simulate.playable():
        pytest.skip(f"{rules}: the engine has no flow for its family yet")
    runs = [hupai.simulate(rules, hands=45, bots="random", seed=11, workers=w, chunk_size=7) for w in (1, 2, 3)]
    first = _without_run(runs[0])
    assert first["hands"] == 45 and first["totals"]["hands"] == 45
    for other in runs[1:]:
        assert _without_run(other) == first
    assert [r.workers for r in runs] == [1, 2, 3]


def test_another_seed_gives_other_hands() -> None:
    one = hupai.simulate("guangdong", hands=30, bots="random", seed=1)
    two = hupai.simulate("guangdong", hands=30, bots="random", seed=2)
    assert one.stats.to_dict() != two.stats.to_dict()


def test_a_chunk_is_the_same_hands_played_anywhere() -> None:
    """The chunk cut depends on hands and chunk size only: a longer run begins with the shorter one's chunks."""
    spec = SimulationSpec("guangdong", {}, resolve_bots("random", 4), 5, 40, 10, "eligible")
    longer = SimulationSpec("guangdong", {}, resolve_bots("random", 4), 5, 80, 10, "eligible")
    assert run_chunk(spec, 10, 20).stats == run_chunk(longer, 10, 20).stats


def test_stats_merge_is_order_independent_and_round_trips() -> None:
    spec = SimulationSpec("guangdong", {}, resolve_bots("greedy", 4), 3, 40, 10, "eligible")
    parts = [run_chunk(spec, start, stop).stats for start, stop in spec.chunks()]
    totals = [Stats.merged(4, order) for order in itertools.permutations(parts)]
    assert all(t == totals[0] for t in totals)
    assert Stats.from_json(json.loads(json.dumps(totals[0].to_dict()))) == totals[0]
    with pytest.raises(hupai.HupaiError, match="3 seats into 4"):
        totals[0].merge(Stats(3))


@pytest.mark.parametrize("rules", hupai.rules.names())
def test_every_rule_system_runs_and_its_totals_add_up(rules: str) -> None:
    if rules not in hupai.simulate.playable():
        pytest.skip(f"{rules}: the engine has no flow for its family yet")
    result = hupai.simulate(rules, hands=30, bots="greedy", seed=4)
    n = hupai.rules.get(rules).num_players
    stats = result.stats
    assert result.num_players == n and len(result.bots) == n and stats.hands == 30
    assert sum(s.wins for s in stats.seats) == stats.wins
    # Every win has a discarder (a deal-in) or none (a self-draw).
    assert sum(s.self_draws + s.deal_ins for s in stats.seats) == stats.wins
    assert sum(s.points for s in stats.seats) == 0  # payments are zero-sum hand by hand
    assert all(sum(s.histogram.values()) == 30 for s in stats.seats)
    assert all(count <= stats.wins for count in stats.patterns.values())
    assert stats.drawn <= 30 and stats.length >= 30
    assert 0 <= result.win_rate(0).low <= result.win_rate(0).value <= result.win_rate(0).high <= 1


def test_mixed_table_and_factories() -> None:
    """One greedy seat against three random ones wins far more often; a factory runs in worker processes."""
    mixed = hupai.simulate("guangdong", hands=60, bots=["greedy", "random", "random", "random"], seed=2)
    assert mixed.bots == ("greedy", "random", "random", "random")
    assert mixed.stats.seats[0].wins > max(s.wins for s in mixed.stats.seats[1:])
    local = hupai.simulate("guangdong", hands=20, bots=seeded_random_bot, seed=2, chunk_size=5)
    pooled = hupai.simulate("guangdong", hands=20, bots=seeded_random_bot, seed=2, chunk_size=5, workers=2)
    assert _without_run(local) == _without_run(pooled)
    assert local.bots[0] == "seeded_random_bot"


def test_a_lambda_bot_runs_in_process_and_is_refused_for_workers() -> None:
    assert hupai.simulate("guangdong", hands=5, bots=lambda seed: RandomBot(seed)).hands == 5
    with pytest.raises(hupai.HupaiError, match="worker processes.*module-level"):
        hupai.simulate("guangdong", hands=5, bots=lambda seed: RandomBot(seed), workers=2)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": -5}, "hands must be an int >= 0"),
    ({"workers": 0}, "workers must be an int >= 1"),
    ({"seed": -1}, "seed must be"),
    ({"bots": "clever"}, "unknown bot 'clever'"),
    ({"bots": ["greedy", "random"]}, "2 given for a table of 4 seats"),
    ({"backend": "spark"}, "unknown backend"),
    ({"options": {"base": 0}}, "base"),
    ({"claim_window": "some"}, "claim_window"),
    ({"chunk_size": 0}, "chunk_size"),
])
def test_bad_arguments_raise_before_any_hand(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(hupai.HupaiError, match=message):
        hupai.simulate("guangdong", **kwargs)


def test_options_are_used_and_recorded() -> None:
    result = hupai.simulate("yunxiao", hands=10, bots="random", options={"scoring": "multiplier_001"})
    assert result.options["scoring"] == "multiplier_001"
    assert result.to_dict()["spec"]["options"]["scoring"] == "multiplier_001"


def test_no_hands_is_an_empty_result_with_null_rates() -> None:
    result = hupai.simulate("guangdong", hands=0)
    assert result.hands == 0 and math.isnan(result.win_rate(0).value)
    data = json.loads(result.to_json())
    assert data["seats"][0]["win_rate"]["value"] is None


def test_jsonl_logs_replay_to_the_same_results(tmp_path: Path) -> None:
    result = hupai.simulate("kawuxing", hands=12, bots="greedy", seed=9, chunk_size=5, workers=2, log_dir=tmp_path)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["hands-000000000.jsonl", "hands-000000005.jsonl", "hands-000000010.jsonl"]
    logs = [json.loads(line) for f in files for line in f.read_text(encoding="utf-8").splitlines()]
    assert len(logs) == 12
    payments = [0, 0, 0]
    for index, log in enumerate(logs):
        assert log["setup"]["dealer"] == index % 3  # the dealer rotates by hand index
        game = Game.replay(log)
        assert game.result is not None and game.log()["result"] == log["result"]  # replay also checks it
        payments = [a + b for a, b in zip(payments, game.result.payments, strict=True)]
    assert payments == [s.points for s in result.stats.seats]


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupt_returns_the_finished_chunks(workers: int) -> None:
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        raise KeyboardInterrupt

    result = hupai.simulate("guangdong", hands=200, bots="random", seed=1, chunk_size=10, workers=workers,
                            progress=progress, on_interrupt="return")
    assert result.interrupted and calls[0] == (10, 200)
    assert 10 <= result.hands < 200
    assert result.hands == sum(stop - start for start, stop in result.chunks_done)
    with pytest.raises(KeyboardInterrupt):
        hupai.simulate("guangdong", hands=50, bots="random", chunk_size=10, progress=progress)


def test_progress_reports_every_chunk() -> None:
    seen: list[tuple[int, int]] = []
    hupai.simulate("guangdong", hands=25, bots="random", chunk_size=10, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(10, 25), (20, 25), (25, 25)]


def test_intervals() -> None:
    # Wilson's interval for 8 of 10 (a textbook value) and for none of 100 (never below zero).
    interval = wilson_interval(8, 10)
    assert interval.value == 0.8 and interval.low == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 100).low == 0.0
    mean, std = mean_interval(1 + 2 + 3 + 4, 1 + 4 + 9 + 16, 4)
    assert mean.value == 2.5 and std == pytest.approx(1.2909944, rel=1e-7)
    assert mean.high - mean.value == pytest.approx(1.959964 * std / 2, rel=1e-6)


def test_csv_and_summary() -> None:
    result = hupai.simulate("guangdong", hands=40, bots="greedy", seed=5)
    rows = [line.split(",") for line in result.to_csv().splitlines()]
    assert rows[0] == ["metric", "seat", "value", "ci95_low", "ci95_high"]
    metrics = {(r[0], r[1]) for r in rows}
    assert {("win_rate", "0"), ("deal_in_rate", "3"), ("points_mean", "2"), ("drawn_rate", "")} <= metrics
    assert any(r[0].startswith("pattern:") for r in rows)
    text = result.summary()
    assert "guangdong: 40 hands, seed 5" in text and "patterns (share of" in text


def test_the_package_is_callable_as_the_api_promises() -> None:
    import hupai.simulate as module

    assert module is hupai.simulate
    assert hupai.simulate("guangdong", hands=3).hands == 3


def test_a_rules_object_outside_the_registry_with_its_own_patterns() -> None:
    """A plugin rule system (not in hupai.rules.names()) runs in this process, its own pattern names counted as
    they are."""
    from hupai.rules.guangdong.rules import GuangdongRules
    from hupai.scoring import Pattern, ScoreResult

    class RenamedPatterns(GuangdongRules):
        name = "toy-renamed"

        def score(self, context: Any) -> ScoreResult:
            base = super().score(context)
            return ScoreResult((Pattern("toy_" + base.patterns[0].name, "玩具", 1),), 1, base.payments)

    rules = RenamedPatterns({})
    result = hupai.simulate(rules, hands=40, bots="greedy", seed=3)
    assert result.rules == "toy-renamed" and result.stats.wins > 0
    assert all(name.startswith("toy_") for name in result.stats.patterns)
    with pytest.raises(hupai.HupaiError, match="options are given with a rule-system name"):
        hupai.simulate(rules, options={"base": 2})


def test_a_system_the_engine_cannot_play_is_refused_before_any_hand() -> None:
    from hupai.rules.guangdong.rules import GuangdongRules

    class Unplayable(GuangdongRules):
        name = "toy-unplayable"
        family = "board-game"

    assert "guangdong" in hupai.simulate.playable()
    with pytest.raises(hupai.HupaiError, match="no engine flow for the rule family 'board-game'"):
        hupai.simulate(Unplayable({}), hands=10, workers=2)


class _FailingBot:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, observation: Any) -> Any:
        raise hupai.HupaiError("the bot gave up")


def test_a_failing_hand_is_named_so_that_it_can_be_played_again() -> None:
    with pytest.raises(hupai.HupaiError, match=r"guangdong hand 0 \(wall seed \d+, dealer 0, simulation seed 5, "
                                               r"chunk size 50\) failed: the bot gave up"):
        hupai.simulate("guangdong", hands=3, bots=_FailingBot, seed=5)
