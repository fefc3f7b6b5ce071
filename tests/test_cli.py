"""The ``hupai`` command line: analyze, simulate, replay; one-line user errors (exit 2, nothing else printed);
no traceback on Ctrl-C, a closed pipe or a terminal that cannot show Chinese."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hupai import __version__
from hupai.cli import main


def _hupai(*args: str, env: dict[str, str] | None = None, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hupai", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120, **kwargs)  # type: ignore[call-overload]


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


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--hands", "-5"], "--hands: must be >= 0, got -5"),
    (["simulate", "--workers", "0"], "--workers: must be >= 1"),
    (["simulate", "--rules", "mahjong"], "unknown rule system 'mahjong'"),
    (["simulate", "-o", "fan=3"], "unknown Guangdong option 'fan'"),
    (["simulate", "-o", "louhu=never"], "'louhu' must be one of"),
    (["simulate", "-o", "louhu"], "is not key=value"),
    (["simulate", "--bots", "greedy,smart,random,random"], "unknown bot 'smart'"),
    (["simulate", "--bots", "greedy,random"], "2 given for a table of 4 seats"),
    (["simulate", "--json", "--csv"], "cannot both go to stdout"),
    (["simulate", "--csv", "/no/such/dir/out.csv"], "--csv: no directory /no/such/dir"),
    (["analyze", "123m456p789s1122z", "123x"], "position 3"),  # nothing printed for the good first hand
    (["analyze", "1m", "--jokers", "-1"], "--jokers: must be >= 0"),
    (["replay", "/no/such/log.json"], "cannot read /no/such/log.json"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_user_errors_are_one_line_and_exit_2_before_any_output(argv: list[str], message: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("hupai: ") and captured.err.count("\n") == 1
    assert message in captured.err


def test_simulate_summarises_seeded_hands(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--hands", "20", "--bots", "greedy", "--seed", "3", "--workers", "1"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert first.startswith("guangdong: 20 hands, seed 3") and "points/hand (95% CI)" in first
    assert main([*argv[:-1], "2"]) == 0
    second = capsys.readouterr().out
    # Same seed, same games, whatever the workers: everything but the first line (workers, timing) repeats.
    assert first.split("\n", 1)[1] == second.split("\n", 1)[1]


def test_simulate_json_csv_options_and_mixed_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "out.csv"
    argv = ["simulate", "--rules", "yunxiao", "-o", "scoring=multiplier_001", "--hands", "12", "--workers", "1",
            "--bots", "greedy,random,random,random", "--json", "--csv", str(csv_path)]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)  # stdout holds the JSON alone
    assert data["spec"]["options"]["scoring"] == "multiplier_001"
    assert data["spec"]["bots"] == ["greedy", "random", "random", "random"] and data["hands"] == 12
    assert csv_path.read_text(encoding="utf-8").startswith("metric,seat,value,ci95_low,ci95_high\n")


def test_simulate_the_earlier_bot_flag_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "4", "--bot", "random", "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["spec"]["bots"] == ["random"] * 4


def test_jsonl_logs_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    assert main(["simulate", "--rules", "kawuxing", "--hands", "3", "--workers", "1", "--seed", "2",
                 "--jsonl-logs", str(logs)]) == 0
    capsys.readouterr()
    [log_file] = logs.iterdir()
    assert main(["replay", str(log_file), "--hand", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("kawuxing: seed ") and lines[-1].startswith("result: ")
    assert any(" discard " in line for line in lines)
    assert main(["replay", str(log_file), "--hand", "1", "--seat", "1"]) == 0
    seat_view = capsys.readouterr().out
    assert "as P1 sees it" in seat_view and "P1 holds" in seat_view
    seed = json.loads(log_file.read_text(encoding="utf-8").splitlines()[1])["setup"]["seed"]
    assert "seed" not in seat_view and str(seed) not in seat_view  # the seed fixes every seat's tiles
    # Another seat's draws are masked: a draw line names no tile.
    assert any(line.strip() == "P0 draw (wall)" for line in seat_view.splitlines())
    assert main(["replay", str(log_file), "--hand", "3"]) == 2
    assert "holds 3 hands" in capsys.readouterr().err
    single = tmp_path / "one.json"
    single.write_text(json.dumps(json.loads(log_file.read_text(encoding="utf-8").splitlines()[0]), indent=1))
    assert main(["replay", str(single)]) == 0


def test_replay_a_zipai_hand_as_one_seat_sees_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import hupai

    if "waihuzi" not in hupai.simulate.playable():
        pytest.skip("waihuzi: the engine has no flow for its family yet")
    assert main(["simulate", "--rules", "waihuzi", "--hands", "2", "--workers", "1", "--jsonl-logs",
                 str(tmp_path)]) == 0
    capsys.readouterr()
    [log_file] = tmp_path.iterdir()
    assert main(["replay", str(log_file), "--hand", "1", "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("waihuzi: dealer ") and ("P2 holds x" in out or "P2 holds d" in out)
    assert "seed" not in out  # a seat's view: the seed would show every seat's cards


def test_version_and_python_dash_m() -> None:
    done = _hupai("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"hupai {__version__}"


def test_a_closed_pipe_prints_no_traceback() -> None:
    """``hupai analyze ... | head -1``: the reader goes away after one line."""
    process = subprocess.Popen([sys.executable, "-m", "hupai", "analyze", *["123m456p789s1122z"] * 3000],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    error = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141
    assert error == ""


def test_a_non_utf8_terminal_prints_no_traceback() -> None:
    done = _hupai("analyze", "123m456p789s1122z", env={"PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 0 and done.stderr == ""
    assert "ready (??)" in done.stdout


def test_ctrl_c_stops_cleanly_and_prints_what_was_done(tmp_path: Path) -> None:
    """SIGINT to the whole process group (as a terminal sends it), once hands are being played."""
    process = subprocess.Popen([sys.executable, "-m", "hupai", "simulate", "--hands", "1000000", "--bots", "random",
                                "--workers", "2", "--jsonl-logs", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        for _ in range(1200):  # the first chunk's log file: workers are playing
            if any(tmp_path.iterdir()):
                break
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "Traceback" not in err and "interrupted after" in err
    assert "(interrupted)" in out.splitlines()[0]
