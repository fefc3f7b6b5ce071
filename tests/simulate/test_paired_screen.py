"""``bench/paired_screen.py``: a bot screened against itself pays the same in every seat-hand (a difference of
exactly zero); a different bot is told apart on the same deals."""

from __future__ import annotations

from typing import Any

import hupai
import hupai.game
import pytest
from bench_scripts import load_bench
from hupai.bots import GreedyBot


@pytest.fixture(scope="module")
def paired() -> Any:
    return load_bench("paired_screen.py", "bench_paired_screen")


def test_a_bot_screened_against_itself_differs_by_nothing(paired: Any, capsys: pytest.CaptureFixture[str]) -> None:
    paired.screen("waihuzi", "ev", "ev", "greedy", deals=4, seed=5)
    out = capsys.readouterr().out
    assert "ev - ev = +0.000 [+0.000, +0.000]" in out and "0 of 12 seat-hands paid differently" in out


def test_a_different_bot_is_told_apart(paired: Any, capsys: pytest.CaptureFixture[str]) -> None:
    paired.screen("waihuzi", "greedy", "random", "greedy", deals=4, seed=5)
    out = capsys.readouterr().out
    assert "random - greedy" in out and " 0 of 12 seat-hands" not in out


def test_a_bot_is_named_by_the_registry_or_module_and_class(paired: Any) -> None:
    from hupai.ev import EVBot
    assert paired.factory("hupai.ev:EVBot") is EVBot
    assert paired.factory("ev") is EVBot
    searcher = paired.factory("search:4:margin=1.5:worlds=weighted")(1)  # a registry name with colons
    assert (searcher.rollouts, searcher.margin, searcher.worlds) == (4, 1.5, "weighted")


@pytest.mark.parametrize("argv", [["--deals", "0"], ["--deals", "1"], ["--deals", "10000000"], ["--seed", "-1"],
                                  ["--seed", str(2**63)]])
def test_counts_out_of_range_are_refused_before_any_deal(paired: Any, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        paired.main(["--variant", "ev", *argv])
    assert refused.value.code == 2


def test_the_capped_difference_caps_every_win_a_loser(paired: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``--cap N``: each loser pays at most N and the winner takes what the losers pay (WH-42); the plain line stays."""
    paired.screen("waihuzi", "greedy", "random", "greedy", deals=4, seed=5, cap=1)
    out = capsys.readouterr().out
    assert "random - greedy" in out and "with every win capped at 1 a loser: " in out
    game = hupai.Game("waihuzi", seed=1)
    result = hupai.game.play(game, [GreedyBot(s) for s in range(3)])
    assert result.payments == (-20, 40, -20)  # seat 1 wins 20 a loser
    assert [paired.capped(result, seat, 1) for seat in range(3)] == [-1.0, 2.0, -1.0]
    assert [paired.capped(result, seat, 10**9) for seat in range(3)] == [-20.0, 40.0, -20.0]
    drawn = hupai.game.play(hupai.Game("waihuzi", seed=2), [GreedyBot(s) for s in range(3)])
    assert drawn.payments == (0, 0, 0) and [paired.capped(drawn, seat, 1) for seat in range(3)] == [0.0] * 3


def test_a_cap_below_one_is_refused(paired: Any) -> None:
    with pytest.raises(SystemExit) as refused:
        paired.main(["--variant", "ev", "--cap", "0"])
    assert refused.value.code == 2
