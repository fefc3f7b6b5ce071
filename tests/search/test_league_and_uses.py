"""The league (simulate --league) and SearchBot where it is used: simulate, the env opponents, the server."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest
from hupai.bots import GreedyBot
from hupai.cli import main
from hupai.errors import HupaiError
from hupai.ev import EVBot
from hupai.search import SearchBot
from hupai.simulate import simulate
from hupai.simulate.chunk import bot_factory
from hupai.simulate.league import fit_ratings, league, lineups


def test_league_output_shape() -> None:
    result = league("kawuxing", ["random", "greedy", "ev"], deals=3, seed=2)
    assert result.bots == ("random", "greedy", "ev") and len(result.pairings) == 3
    assert math.isclose(sum(r.value for r in result.ratings), 0.0, abs_tol=1e-6)
    assert all(r.low <= r.value <= r.high for r in result.ratings)
    lines = result.table().splitlines()
    assert lines[0].startswith("kawuxing: league of 3 bots, 3 rotated deals a pair")
    assert len(lines) == 2 + 3 + 1 + 3
    data = json.loads(result.to_json())
    assert set(data["ratings"]) == {"random", "greedy", "ev"} and len(data["pairings"]) == 3


def test_league_cli(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    assert main(["simulate", "--rules", "guangdong", "--league", "random,greedy", "--hands", "2", "--workers", "1",
                 "--json", "-", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == ["random", "greedy"] and data["deals"] == 2


def test_ratings_fit_the_differences() -> None:
    ratings = fit_ratings(3, [(0, 1, 1.0, 0.1), (1, 2, 1.0, 0.1), (0, 2, 2.0, 0.1)])
    assert ratings.tolist() == pytest.approx([1.0, 0.0, -1.0], abs=1e-6)
    assert lineups(0, 1, 4) == [[0, 1, 0, 1]] and lineups(0, 1, 3) == [[0, 1, 1], [0, 0, 1]]


def test_league_refuses_one_bot() -> None:
    with pytest.raises(HupaiError, match="two or more"):
        league("guangdong", ["ev"], deals=2)


def test_search_is_a_named_bot() -> None:
    assert bot_factory("search") is SearchBot
    assert bot_factory("search:3")(1).rollouts == 3
    bot = bot_factory("search:4:margin=1.5")(1)
    assert (bot.rollouts, bot.margin) == (4, 1.5)
    assert bot_factory("search:4")(1).margin == 3.0
    bot = bot_factory("search:4:margin=1:worlds=weighted")(1)
    assert (bot.rollouts, bot.margin, bot.worlds) == (4, 1.0, "weighted") and bot._weights is not None
    assert bot_factory("search:4:worlds=uniform")(1)._weights is None
    waiting = bot_factory("search:4:margin=1.5:worlds=waiting")(1)
    assert waiting.worlds == "waiting" and type(waiting._weights).__name__ == "WaitingWorlds"
    bot = bot_factory("search:48:top_k=2:rollout=ev:margin=1.5")(1)
    assert (bot.rollouts, bot.top_k, bot._policy, bot.margin) == (48, 2, EVBot, 1.5)
    assert bot_factory("search:4:rollout=greedy")(1)._policy is GreedyBot
    assert bot_factory("search:64:decisions=claims:worlds=weighted")(1).decisions == "claims"
    assert bot_factory("search:4")(1).decisions == "all"
    assert bot_factory("search:16:danger=guard:worlds=weighted")(1).danger == "guard"
    assert bot_factory("search:4")(1).danger == "any"
    for bad in ("search:0", "search:x", "searchy", "search:4:margin=", "search:4:margin=nan", "search:4:margin=-1",
                "search:4:margin=1e9", "search:4:top=2", "search:4:margin=1:x", "search::margin=1",
                "search:4:worlds=soft", "search:4:margin=1:margin=2", "search:4:worlds=weighted:",
                "search:4:top_k=0", "search:4:top_k=17", "search:4:top_k=x", "search:4:top_k=2:top_k=3",
                "search:4:rollout=random", "search:4:rollout=", "search:4:decisions=turns", "search:4:danger=safe",
                "search:4:danger=guard:danger=any"):
        with pytest.raises(HupaiError, match="unknown bot"):
            bot_factory(bad)
    for margin in (-0.5, float("nan"), float("inf"), "1", True):
        with pytest.raises(HupaiError, match="margin must be"):
            SearchBot(0, margin=margin)  # type: ignore[arg-type]
    result = simulate("waihuzi", hands=1, bots=["search:2", "greedy", "greedy"], seed=3)
    assert result.hands == 1


def test_env_accepts_search_opponents() -> None:
    from hupai.env.single import _opponents

    assert _opponents("search", 3) == [SearchBot] * 3


def test_server_search_budget_stays_inside_the_turn_timer() -> None:
    from hupai.serve.config import parse_config
    from hupai.serve.tables import SEARCH_MS, SEARCH_SLACK, Table

    config, _, _ = parse_config({"rules": "guangdong", "bot": "search"})
    assert config.bot == "search"

    def table(turn: float, opened: float) -> object:
        clock = SimpleNamespace(base=lambda claim: turn)
        return SimpleNamespace(clock=clock, _timed=lambda seat: False, opened_at={1: opened})

    assert Table.search_budget_ms(table(30.0, 100.0), 1, now=100.0) == SEARCH_MS  # type: ignore[arg-type]
    assert Table.search_budget_ms(table(0.0, 100.0), 1, now=100.0) == SEARCH_MS  # type: ignore[arg-type]  # no timer
    near = Table.search_budget_ms(table(1.0, 100.0), 1, now=100.7)  # type: ignore[arg-type]
    assert near == pytest.approx(1000 * (1.0 - SEARCH_SLACK - 0.7))
    assert Table.search_budget_ms(table(1.0, 100.0), 1, now=101.5) == 0.0  # type: ignore[arg-type]
