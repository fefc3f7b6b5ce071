"""The package's import graph (issue 8, issue 30 item 4): no import circle, and layers that point one way,
``cli / simulate / serve -> game -> rules -> hand, tiles, analysis -> _core``. What counts as an import (all of
them: deferred and ``TYPE_CHECKING`` ones too) is said in ``import_graph``."""

import pathlib

import hupai
from import_graph import cycles, imports, modules

PACKAGE = pathlib.Path(hupai.__file__).parent

# Layers, lowest first: a module may import its own layer and those below, never above.
LAYERS = [
    {"_core", "errors", "tiles", "hand", "analysis", "actions", "events", "scoring", "zipai", "observation",
     "jsonform", "notation"},
    {"rules"},
    {"game"},
    {"bots", "ev", "belief", "_world_weights", "_world_levels", "_world_waits", "worlds", "search"},
    {"cli", "cli_score", "simulate", "serve", "env", "viewer", "__main__", ""},
]

# The engine's shell: what hupai.game's own modules below it (its flows, their state) never import.
SHELL = {"hupai.game", "hupai.game.game", "hupai.game.match", "hupai.game.scripted", "hupai.game.spectator"}


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    for rank, names in enumerate(LAYERS):
        if top in names:
            return rank
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def _where(edge) -> str:
    how = " (type checking only)" if edge.typing_only else " (in a function)" if edge.deferred else ""
    return f"{edge.source} imports {edge.target}, line {edge.line}{how}"


def test_no_import_circles():
    """No module reaches itself through imports, counting every import statement."""
    found = cycles(imports(PACKAGE))
    assert not found, "import circles:\n" + "\n".join(f"{', '.join(group)}: {' -> '.join(path)}"
                                                     for group, path in found)


def test_layers_point_one_way():
    """No module imports a layer above its own; nothing under rules/ imports hupai.game at all."""
    wrong = [_where(edge) for edge in imports(PACKAGE)
             if _layer(edge.target) > _layer(edge.source)
             or edge.source.startswith("hupai.rules") and edge.target.startswith("hupai.game")]
    assert not wrong, "\n".join(wrong)


def test_the_game_shell_sits_on_top():
    """``hupai.game`` is a shell (Game, Match, replay, snapshots) over its flows and their state: nothing below
    the shell imports it."""
    wrong = [_where(edge) for edge in imports(PACKAGE)
             if edge.target in SHELL and edge.source.startswith("hupai.game.") and edge.source not in SHELL]
    assert not wrong, "\n".join(wrong)


def test_every_import_names_a_module_of_the_package():
    """Each hupai import resolves to a module that exists (so a moved module cannot hide from the checks)."""
    known = modules(PACKAGE)
    edges = imports(PACKAGE)
    assert len({edge.source for edge in edges}) > 100  # the walk found the package
    missing = [_where(edge) for edge in edges if edge.target not in known]
    assert not missing, "\n".join(missing)


def test_the_checks_can_fail(tmp_path):
    """A circle through a deferred import and one through a ``TYPE_CHECKING`` import are both found and named;
    relative imports at any depth resolve."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("from .a import A\n")
    (root / "a.py").write_text("from .sub import b\nA = 1\n")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "b.py").write_text("def f():\n    from ..a import A\n    return A\n")
    (root / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                       "    from .d import D\n")
    (root / "sub" / "d.py").write_text("from pkg.sub import c\nD = 1\n")
    edges = imports(root)
    assert {(e.source, e.target, e.typing_only, e.deferred) for e in edges} == {
        ("pkg", "pkg.a", False, False), ("pkg.a", "pkg.sub.b", False, False),
        ("pkg.sub.b", "pkg.a", False, True), ("pkg.sub.c", "pkg.sub.d", True, False),
        ("pkg.sub.d", "pkg.sub.c", False, False)}
    assert cycles(edges) == [(["pkg.a", "pkg.sub.b"], ["pkg.a", "pkg.sub.b", "pkg.a"]),
                             (["pkg.sub.c", "pkg.sub.d"], ["pkg.sub.c", "pkg.sub.d", "pkg.sub.c"])]
