"""Issue 23 (packaging): a SQLite-only ``hupai[server]``, psycopg in ``hupai[postgres]``, an ``[all]`` extra, the
test extras still pulling what the tests need, and ``make run`` installing only what it runs."""

from __future__ import annotations

import asyncio
import re
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
    assert stamp is not None and stamp.group(1).endswith('pip install --quiet -e ".[progress]"')
    assert re.search(r"^test: \$\(STAMP\)$", makefile, re.M)  # the tests keep everything they need
    assert '-e ".[test,server-test]"' in makefile


def test_postgres_storage_without_psycopg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette")
    from hupai.serve.storage import PostgresDatabase

    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ImportError
    with pytest.raises(HupaiError, match=re.escape("pip install 'hupai[postgres]'")):
        asyncio.run(PostgresDatabase("postgresql://nobody@localhost/none")._conn())
