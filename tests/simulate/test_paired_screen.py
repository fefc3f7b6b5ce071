"""``bench/paired_screen.py``: a bot screened against itself pays the same in every seat-hand (a difference of
exactly zero); a different bot is told apart on the same deals."""

from __future__ import annotations

from typing import Any

import pytest
from bench_scripts import load_bench


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
