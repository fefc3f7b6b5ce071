"""``hupai simulate --rules kawuxing`` plays three-seat hands."""

from __future__ import annotations

import json

from hupai.cli import main


def test_simulate_kawuxing_runs_three_seat_hands(capsys):
    for bot in ("random", "greedy"):
        assert main(["simulate", "--rules", "kawuxing", "--hands", "30", "--seed", "3", "--bots", bot,
                     "--workers", "1", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["hands"] == 30 and len(data["seats"]) == 3  # three seats
        assert sum(seat["points_total"] for seat in data["seats"]) == 0


def test_analyze_with_kawuxing_rules_uses_its_forms_and_tile_set(capsys):
    """``hupai analyze --rules kawuxing``: seven pairs with a quad counted as two pairs (KW-19), and a tile
    outside the 84-tile set (KW-1) refused with one line and exit status 2."""
    from hupai.cli import main

    assert main(["analyze", "--rules", "kawuxing", "1122p3344s5566p7z"]) == 0
    out = capsys.readouterr().out
    assert "waits     7z" in out
    assert main(["analyze", "--rules", "kawuxing", "1111p2233s4455p7z"]) == 0
    assert "waits     7z" in capsys.readouterr().out  # 1111p is two pairs here
    assert main(["analyze", "--rules", "kawuxing", "123m456p789p11s5z"]) == 2
    assert "not in the kawuxing tile set" in capsys.readouterr().err
