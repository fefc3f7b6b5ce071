"""Fixtures of the server tests: an app on a fresh SQLite file (or a throwaway PostgreSQL) under Starlette's
test client, and the create/join calls every test makes."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed (make install)")
pytest.importorskip("httpx", reason="the server tests need httpx (make install)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that it prefers another HTTP client package
    from starlette.testclient import TestClient

from hupai.serve.app import Settings, create_app  # noqa: E402
from serve_helpers import postgres_bin, postgres_server  # noqa: E402


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    import os
    if not os.environ.get("HUPAI_TEST_POSTGRES") and postgres_bin() is None:
        pytest.skip("no PostgreSQL binaries (/usr/lib/postgresql/*/bin) and no HUPAI_TEST_POSTGRES URL")
    pytest.importorskip("psycopg", reason="PostgreSQL storage needs psycopg 3 (the server extra)")
    with postgres_server() as url:
        yield url


@pytest.fixture
def cluster_db(pg_url: str) -> Iterator[str]:
    """A database of its own on the throwaway PostgreSQL, for a cluster of ``hupai serve --cluster`` processes
    (which would take over the other tests' live tables in a shared one)."""
    import secrets

    import psycopg

    name = f"hupai_cluster_{secrets.token_hex(4)}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield pg_url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'hupai.db'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, Settings())) as test_client:
        yield test_client


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, sqlite_url: str) -> str:
    """The same test on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return sqlite_url
    url: str = request.getfixturevalue("pg_url")
    return url
