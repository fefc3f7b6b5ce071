"""The reference game server (``hupai serve``, the optional ``server`` extra): tables of every rule system,
seats opened by secret tokens, server-side bots, matches of several hands, every action stored before it is
acknowledged (SQLite by default, PostgreSQL through psycopg 3), a browser table in ``static/``.

``create_app(db)`` is the ASGI app (:mod:`.app`); ``run(db, host, port)`` serves it with uvicorn. Starlette
and uvicorn are imported only here, on use, so that ``hupai`` itself never needs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import missing_extra

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette

__all__ = ["create_app", "run"]


def _app_module() -> Any:
    try:
        from . import app
    except ImportError:
        raise missing_extra("hupai serve (Starlette, uvicorn)", "server") from None
    return app


def create_app(db: str = "sqlite:///hupai.db", settings: Any = None) -> Starlette:
    """The ASGI app storing its tables in ``db`` (``sqlite:///file.db`` or ``postgresql://...``)."""
    app: Starlette = _app_module().create_app(db, settings)
    return app


def run(db: str = "sqlite:///hupai.db", host: str = "127.0.0.1", port: int = 8000, **limits: Any) -> None:
    """Serve with uvicorn until interrupted; ``limits`` are :class:`hupai.serve.host.Settings` fields."""
    module = _app_module()
    module.run(db, host, port, module.Settings(**limits))
