"""Every mistake a user can make at the command line is one line saying what to do, and exit status 2 (issue 29
item 3): each case runs ``hupai`` as a real process; a traceback on stderr, another exit status or more than one
line fails it. The server's error pages are HTML for a browser and JSON for the API."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

SERVE = importlib.util.find_spec("uvicorn") is not None and importlib.util.find_spec("starlette") is not None
RAY = importlib.util.find_spec("ray") is not None
PSYCOPG = importlib.util.find_spec("psycopg") is not None


def _hupai(args: Sequence[str], cwd: Path, timeout: float = 120) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "hupai.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    return done.returncode, done.stderr


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed when the block ends: nothing listens there


def _one_line(status: int, stderr: str, *words: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert status == 2, (status, stderr)
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("hupai: "), stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.skipif(not SERVE, reason="the server extra is not installed")
@pytest.mark.parametrize(("db", "words"), [
    ("sqlite:///{tmp}/no/such/dir/x.db", ("cannot use the database", "directory")),
    ("hupai.db", ("unknown database URL", "sqlite:///")),
    ("postgresql://u:secret@[bad/x", ("not a database URL",)),
    ("postgresql://u:pw@127.0.0.1:notaport/x", ("not a database URL",)),
    pytest.param("postgresql://u:secret@127.0.0.1:{closed}/x", ("cannot use the database", "PostgreSQL runs", "***"),
                 marks=pytest.mark.skipif(not PSYCOPG, reason="psycopg is not installed")),
])
def test_serve_refuses_a_database_it_cannot_use_in_one_line(tmp_path: Path, db: str, words: tuple[str, ...]) -> None:
    url = db.format(tmp=tmp_path, closed=_closed_port())
    status, stderr = _hupai(["serve", "--db", url, "--port", str(_closed_port())], tmp_path)
    _one_line(status, stderr, *words)
    assert "secret" not in stderr  # a password in the URL is never shown


@pytest.mark.skipif(not SERVE, reason="the server extra is not installed")
def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, stderr = _hupai(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(port)], tmp_path)
    _one_line(status, stderr, "in use", "--port")


@pytest.mark.parametrize(("args", "words"), [
    (["serve", "--port", "99999"], ("--port", "1..65535")),
    (["serve", "--port", "http"], ("--port", "not a port")),
    (["score", "guangdong", "123m456p789s11z55s"], ("--win-tile",)),
    (["score", "waihuzi", "x1 x2 x3"], ()),
])
def test_argument_mistakes_are_one_line(tmp_path: Path, args: list[str], words: tuple[str, ...]) -> None:
    status, stderr = _hupai(args, tmp_path)
    _one_line(status, stderr, *words)
    assert "win_tile" not in stderr  # the command line's flag names, not the library's keywords


@pytest.mark.skipif(not RAY, reason="Ray is not installed")
def test_simulate_with_no_ray_cluster_is_one_line(tmp_path: Path) -> None:
    status, stderr = _hupai(["simulate", "--backend", "ray", "--address", "auto", "--hands", "10", "--no-progress"],
                            tmp_path, timeout=300)
    _one_line(status, stderr, "Ray", "ray start --head")


@pytest.mark.skipif(not RAY, reason="Ray is not installed")
def test_simulate_with_a_ray_address_where_nothing_listens_is_one_line(tmp_path: Path) -> None:
    status, stderr = _hupai(["simulate", "--backend", "ray", "--address", f"127.0.0.1:{_closed_port()}", "--hands",
                             "10", "--no-progress"], tmp_path, timeout=300)
    _one_line(status, stderr, "cannot reach the Ray cluster", "ray start --head")


def test_help_names_every_default() -> None:
    serve = subprocess.run([sys.executable, "-m", "hupai.cli", "serve", "--help"], capture_output=True, text=True,
                           check=True).stdout
    flat = " ".join(serve.split())
    for default in ("(default: sqlite:///hupai.db)", "(default: 127.0.0.1)", "(default: 8000)", "(default: 64)",
                    "(default: 128)", "(default: 10.0)", "(default: 50.0)", "(default: http://HOST:PORT)"):
        assert default in flat, default
    score = " ".join(subprocess.run([sys.executable, "-m", "hupai.cli", "score", "--help"], capture_output=True,
                                    text=True, check=True).stdout.split())
    for option in ("--win-tile", "--winner", "--discarder", "--liable", "--gold", "--jokers"):
        words = score[score.index(option + " ", score.index("options:")):][:200]
        assert "default" in words, (option, words)


@pytest.mark.skipif(not SERVE, reason="the server extra is not installed")
def test_error_pages_are_html_for_a_browser_and_json_for_the_api(tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from hupai.serve.app import Settings, create_app

    browser = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.db'}", Settings())) as client:
        for path in ("/replay/NOPE", "/no/such/page", "/replay/NOPE/hands/0"):
            page = client.get(path, headers=browser)
            assert page.status_code == 404 and page.headers["content-type"].startswith("text/html"), path
            assert "<p>" in page.text and "Traceback" not in page.text
            api = client.get(path)
            assert api.status_code == 404 and api.json()["code"] == "not_found", path
        api = client.get("/api/tables/NOPE", headers=browser)  # the API answers JSON whoever asks
        assert api.status_code == 404 and api.json()["code"] == "not_found"
