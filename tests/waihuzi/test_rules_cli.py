"""``hupai analyze --rules waihuzi``: splits, the best layout with 息, waits with 息 and copies left, a win's score."""

from __future__ import annotations

import pytest
from hupai.cli import main

E1 = "[溜 d9d9d9d9] [歪 x3x3x3] [碰 d5d5d5] [飘 x6x6x6x6] x8 x8 x8 d2 d7 d10 x1"
E3 = "x1 x1 x2 x5 x5 x5 x6 x7 x7 x8 x10 d1 d2 d4 d5 d6 d7 d8 d9"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["analyze", "--rules", "waihuzi", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.rule("WH-30", "WH-32")
def test_a_hand_at_rest_lists_its_waits_with_xi_and_copies_left(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, E3)
    assert code == 0
    assert "wait x1  (2 left)  self-drawn  8 息 score 8  from another  5 息 score 5" in out
    assert "wait d3  (4 left)" in out
    code, out, _ = run(capsys, E1)
    assert "wait x1  (3 left)  self-drawn 18 息 score 576  from another 15 息 score 480" in out


def test_a_hand_with_no_wait_shows_its_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "x1 x2 x3 x4 x5 x6 x8 x9 x10 d1 d2 d3 d4 d5 d6 d7 d8 d9 d10")
    assert code == 0 and "none with enough 息" in out and "1 card(s) from a win" in out


@pytest.mark.rule("WH-33", "WH-42")
def test_a_complete_hand_with_its_winning_card_is_scored(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--win", "x1", "--source", "other", E1 + " x1")
    assert code == 0
    assert "[坎 x8x8x8 3] [句 d2d7d10 1] [胡对 x1x1 1]  (15 息)" in out
    assert "行行息×4" in out and "内元 d9 外元 x6" in out
    assert "score     480 from each loser; payments [960, -480, -480]" in out


@pytest.mark.rule("WH-28", "WH-31")
def test_a_complete_hand_lists_its_splits_and_best_layout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, E3 + " d3")
    assert code == 0 and "splits    1" in out and "best      " in out and "score     5 from each loser" in out


def test_bad_sizes_and_cards_are_clean_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "x1 x2")
    assert code == 2 and "at rest has 19" in err
    code, _, err = run(capsys, "x1 x11")
    assert code == 2 and "position" in err
    code, _, err = run(capsys, "--win", "d3", E3 + " x4")
    assert code == 2 and "--win must be one card of the hand" in err
    code, _, err = run(capsys, "--win", "x4", E3 + " x4")
    assert code == 2 and "does not split" in err
