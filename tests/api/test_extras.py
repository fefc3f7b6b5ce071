"""The extras: a SQLite-only ``hupai[server]``, psycopg in ``hupai[postgres]``, an ``[all]`` extra, the test extras
still pulling what the tests need, ``make run`` installing only what it runs, every Makefile install reusing one
C++ build; and a missing extra refused in one line (exit 2 at the command line) that names install lines that
work."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from hupai import HupaiError

ROOT = Path(__file__).resolve().parents[2]


def _extras() -> dict[str, set[str]]:
    """extra -> the requirement names it pulls (hupai[...] ones with their extras sorted)."""
    found: dict[str, set[str]] = {}
    for requirement in metadata.requires("hupai") or []:
        name, _, marker = requirement.partition(";")
        extra = re.search(r'extra == "([^"]+)"', marker)
        if extra:
            name = re.split(r"[<>=!~ ]", name.strip())[0].lower()
            inner = re.fullmatch(r"hupai\[(.*)\]", name)
            if inner:  # the metadata may order the extras of a self-reference: sort them
                name = f"hupai[{','.join(sorted(inner.group(1).split(',')))}]"
            found.setdefault(extra.group(1), set()).add(name)
    return found


def test_server_is_sqlite_only_and_postgres_brings_psycopg() -> None:
    extras = _extras()
    assert not any(name.startswith("psycopg") for name in extras["server"])
    assert {"starlette", "uvicorn[standard]", "websockets"} <= extras["server"]
    # httpx: a `hupai serve --cluster` process (PostgreSQL only) forwards requests to its peers (issue 24 item 4).
    assert extras["postgres"] == {"psycopg[binary]", "httpx"}
    assert "hupai[postgres,server]" in extras["server-test"]  # the PostgreSQL tests still run


def test_all_is_every_user_feature_and_no_tool() -> None:
    assert _extras()["all"] == {"hupai[env,plot,postgres,progress,ray,server]"}


def test_make_run_installs_only_what_it_runs() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run = re.search(r"^run: (.+)$", makefile, re.M)
    assert run is not None and run.group(1).strip() == "$(RUN_STAMP)"
    stamp = re.search(r"^\$\(RUN_STAMP\):.*\n\t(.+)\n", makefile, re.M)
    assert stamp is not None and stamp.group(1) == '$(PIP_INSTALL) -e ".[progress]"'
    assert re.search(r"^test: \$\(STAMP\)$", makefile, re.M)  # the tests keep everything they need
    assert '-e ".[test,server-test]"' in makefile


def test_postgres_storage_without_psycopg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette")
    from hupai.serve.storage import PostgresDatabase

    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ImportError
    with pytest.raises(HupaiError, match=re.escape("pip install 'hupai[postgres]'")):
        asyncio.run(PostgresDatabase("postgresql://nobody@localhost/none")._conn())


def test_every_makefile_install_builds_in_the_venv_with_the_declared_requirements() -> None:
    """pip's isolated build environment is new at every install and scikit-build-core clears the build directory
    when its own path changes: an install that is not --no-build-isolation recompiles the whole core."""
    tomllib = pytest.importorskip("tomllib")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^PIP_INSTALL +:= \$\(PY\) -m pip install --quiet --no-build-isolation$", makefile, re.M)
    editable = re.findall(r"^\t.*(?:pip install|\$\(PIP_INSTALL\)).* -e .*$", makefile, re.M)
    assert len(editable) >= 5
    for line in editable:
        assert "$(PIP_INSTALL)" in line or "--no-build-isolation" in line, line
    declared = re.search(r"^BUILD_REQUIRES := (.+)$", makefile, re.M)
    assert declared is not None
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert re.findall(r'"([^"]+)"', declared.group(1)) == pyproject["build-system"]["requires"]


def _pulled_by(extras: dict[str, set[str]], names: list[str]) -> set[str]:
    """Every requirement the extras `names` bring, self-references (hupai[a,b]) followed."""
    pulled: set[str] = set()
    for name in names:
        for requirement in extras[name]:
            inner = re.fullmatch(r"hupai\[(.*)\]", requirement)
            pulled |= _pulled_by(extras, inner.group(1).split(",")) if inner else {requirement}
    return pulled


USER_EXTRAS = ["env", "plot", "postgres", "progress", "ray", "server"]


def test_make_install_brings_every_extra_an_error_names() -> None:
    """The hints say `make install` first: it must bring what each of them asks for."""
    extras = _extras()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    stamp = re.search(r"^\$\(STAMP\):.*\n\t\$\(PIP_INSTALL\) -e \"\.\[(.+)\]\"\n", makefile, re.M)
    assert stamp is not None
    installed = _pulled_by(extras, stamp.group(1).split(","))
    for extra in USER_EXTRAS:
        assert _pulled_by(extras, [extra]) <= installed, extra


def _without(modules: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`hupai ARGS` in a fresh interpreter where `modules` (comma-separated) cannot be imported."""
    shim = ("import sys\n"
            "for name in sys.argv[1].split(','): sys.modules[name] = None  # import name: ImportError\n"
            "from hupai.cli import main\n"
            "sys.exit(main(sys.argv[2:]))\n")
    return subprocess.run([sys.executable, "-c", shim, modules, *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore"})


def _assert_install_line(message: str, extra: str) -> None:
    assert extra in _extras()
    assert f"needs the {extra} extra" in message
    assert "make install" in message
    assert f".venv/bin/pip install --no-build-isolation -e '.[{extra}]'" in message
    assert f"pip install 'hupai[{extra}]'" in message


PG_URL = "postgresql://nobody@127.0.0.1:9/none"  # never reached: the check comes first


@pytest.mark.parametrize(("blocked", "extra", "args"), [
    ("starlette", "server", ["serve", "--port", "9"]),
    ("uvicorn", "server", ["serve", "--port", "9"]),
    ("psycopg", "postgres", ["serve", "--port", "9", "--db", PG_URL]),
    ("httpx", "postgres", ["serve", "--port", "9", "--cluster", "--db", PG_URL]),
    ("ray", "ray", ["simulate", "--hands", "5", "--backend", "ray", "--no-progress"]),
    ("matplotlib", "plot", ["simulate", "--hands", "5", "--plot", "never.png", "--no-progress"]),
])
def test_a_missing_extra_is_one_line_and_exit_2(blocked: str, extra: str, args: list[str]) -> None:
    if blocked != "starlette":
        pytest.importorskip("starlette" if args[0] == "serve" else "hupai")
    result = _without(blocked, *args)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hupai: "), result.stderr
    _assert_install_line(lines[0], extra)


def test_hupai_env_without_its_extra_names_the_install_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    import hupai.env

    for blocked in ("pettingzoo", "gymnasium"):
        with monkeypatch.context() as patch:
            patch.setitem(sys.modules, blocked, None)
            for make in (hupai.env.aec_env, hupai.env.gym_env, hupai.env.vector_env):
                with pytest.raises(HupaiError) as caught:
                    make("guangdong")
                _assert_install_line(str(caught.value), "env")
