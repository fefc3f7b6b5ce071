"""``hupai simulate`` and ``hupai.simulate(...)`` given what a careless or hostile user gives (issue 21 item 4,
issue 22 item 5): every mistake is one line (a usage error, exit 2, before any hand is played) or a HupaiError,
never a traceback after the run; numpy integers are integers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import hupai
import numpy as np
import pytest
from hupai.cli import main

CLI = "import sys; from hupai.cli import main; sys.exit(main())"


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CLI, "simulate", "--no-progress", "--workers", "1", *argv],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("argv", "message"), [
    (["--workers", "-1"], "argument --workers: must be >= 1, got -1"),
    (["--workers", "0"], "argument --workers: must be >= 1, got 0"),
    (["--hands", "1.5"], "argument --hands: '1.5' is not an integer"),
    (["--bots", "smart"], "unknown bot 'smart'"),
    (["--rules", "kawuxing", "--bots", "ev,greedy,greedy,greedy", "--rotate"], "bots: 4 given for a table of 3"),
])
def test_bad_arguments_are_one_line_usage_errors(argv: list[str], message: str) -> None:
    done = _cli("--hands", "5", *argv) if "--hands" not in argv else _cli(*argv)
    assert done.returncode == 2 and message in done.stderr and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1


def test_output_files_are_checked_before_the_run(tmp_path: Path) -> None:
    """A --plot format matplotlib cannot write, a --json or --csv path that is a directory: refused up front
    (they failed with a traceback after the whole run)."""
    pytest.importorskip("matplotlib")
    for argv, message in ((["--plot", str(tmp_path / "points.xyz")], "matplotlib cannot write .xyz files"),
                          (["--json", str(tmp_path)], "is a directory"),
                          (["--csv", str(tmp_path)], "is a directory")):
        done = _cli("--hands", "5", *argv)
        assert done.returncode == 2 and message in done.stderr and done.stdout == "", done.stderr
        assert "Traceback" not in done.stderr
    assert _cli("--hands", "2", "--plot", str(tmp_path / "points.PDF")).returncode == 0
    assert (tmp_path / "points.PDF").read_bytes().startswith(b"%PDF")


def test_a_write_that_fails_after_the_run_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.json"
    real_open = open

    def full_disk(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path) == str(target):
            raise OSError(28, "No space left on device")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", full_disk)
    assert main(["simulate", "--hands", "2", "--workers", "1", "--no-progress", "--json", str(target)]) == 2
    assert capsys.readouterr().err == f"hupai: --json: cannot write {target}: No space left on device\n"


def test_the_library_takes_numpy_integers_and_refuses_the_rest() -> None:
    result = hupai.simulate("guangdong", hands=np.int64(3), seed=np.uint64(5), workers=np.int32(1),
                            chunk_size=np.int8(2))
    assert result.hands == 3 and result.seed == 5 and type(result.seed) is int
    assert result.to_dict() == hupai.simulate("guangdong", hands=3, seed=5, chunk_size=2).to_dict() | {
        "run": result.to_dict()["run"]}
    for kwargs, message in (({"hands": True}, "hands must be an int"), ({"seed": np.float64(1)}, "seed must be"),
                            ({"workers": 1.0}, "workers must be an int"), ({"progress": 3}, "progress must be"),
                            ({"bots": lambda seed: 3}, "returned a .int. object, not a player")):
        with pytest.raises(hupai.HupaiError, match=message):
            hupai.simulate("guangdong", **{"hands": 2, **kwargs})
