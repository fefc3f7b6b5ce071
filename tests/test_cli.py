"""The ``hupai`` command line: analyze and simulate, and a clean error for bad input."""

from __future__ import annotations

import pytest
from hupai.cli import main


def test_analyze_prints_shanten_and_waits(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s1122z"]) == 0
    out = capsys.readouterr().out
    assert "shanten   0" in out and "waits     1z 2z" in out


def test_analyze_complete_hand_lists_readings_with_jokers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s11z35s", "--jokers", "1"]) == 0
    out = capsys.readouterr().out
    assert "complete" in out and "[345s(*4s)]" in out


def test_analyze_knitted_form(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "14m259s369p12467z", "--forms", "knitted"]) == 0
    assert "waits     7m 8m 9m 3z 5z" in capsys.readouterr().out


def test_analyze_bad_hand_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123x"]) == 2
    assert "position 3" in capsys.readouterr().err


def test_simulate_summarises_seeded_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "20", "--bot", "greedy", "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert "20 hands with greedy bots" in first
    assert main(["simulate", "--hands", "20", "--bot", "greedy", "--seed", "3"]) == 0
    second = capsys.readouterr().out
    # Same seed, same games: everything but the timing repeats.
    assert first.split("\n", 1)[1] == second.split("\n", 1)[1]
