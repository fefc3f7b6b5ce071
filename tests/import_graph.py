"""The import graph between a package's own modules, read from the source with ``ast`` (nothing is imported).

Every import statement counts, wherever it stands: at module level, inside a function (a deferred import is
still a dependency, only a later one) and under ``if TYPE_CHECKING:`` (an annotation that names a class of
another module ties the two modules' designs together as much as a call does; a module that must name a class
from above it takes a Protocol from below instead). Importing ``pkg.sub`` also runs ``pkg/__init__.py``; that
implicit edge is left out, as import linters do, since every module would otherwise depend on the package
that re-exports it. An explicit ``from pkg import name`` is an edge to ``pkg.name`` when that is a module, else
to ``pkg`` itself.
"""

from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Import:
    """One edge: ``source`` imports ``target`` at ``line``; ``typing_only`` if under ``if TYPE_CHECKING:``,
    ``deferred`` if inside a function or class body."""

    source: str
    target: str
    line: int
    typing_only: bool
    deferred: bool


def modules(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """Every module of the package at ``root`` by dotted name (``hupai.game.game``; a package by its own name),
    compiled ones included through their stubs (``_core.pyi``)."""
    out: dict[str, pathlib.Path] = {}
    for path in sorted(root.rglob("*.py*")):
        if path.suffix not in (".py", ".pyi") or "__pycache__" in path.parts:
            continue
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out.setdefault(".".join(parts), path)
    return out


def imports(root: pathlib.Path) -> list[Import]:
    """Every import of one of the package's modules by another (or itself), in file and line order."""
    known = modules(root)
    edges: list[Import] = []
    for name, path in known.items():
        if path.suffix != ".py":
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges.extend(_edges(tree, name, package, known))
    return edges


def _edges(tree: ast.Module, name: str, package: str, known: dict[str, pathlib.Path]) -> list[Import]:
    top = known and next(iter(known)).split(".")[0]
    out: list[Import] = []

    def visit(node: ast.AST, typing_only: bool, deferred: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for stmt in child.body:
                    visit_one(stmt, True, deferred)
                for stmt in child.orelse:
                    visit_one(stmt, typing_only, deferred)
            else:
                visit_one(child, typing_only, deferred)

    def visit_one(node: ast.AST, typing_only: bool, deferred: bool) -> None:
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, *([node.module] if node.module else [])])
            else:
                stem = node.module or ""
            if stem == top or stem.startswith(f"{top}."):
                targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem
                           for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names if alias.name == top or alias.name.startswith(f"{top}.")]
        for target in dict.fromkeys(targets):
            out.append(Import(name, target, getattr(node, "lineno", 0), typing_only, deferred))
        inner = deferred or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
        visit(node, typing_only, inner)

    visit(tree, False, False)
    return out


def cycles(edges: list[Import]) -> list[tuple[list[str], list[str]]]:
    """The import circles: each strongly connected group of modules (Tarjan; sorted) with one closed path
    through it (``[a, b, a]``: the shortest from its first module by name)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:  # recursion depth is bounded by the module count (a few hundred)
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in sorted(graph[node]):
            if after not in index:
                connect(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted((group, _closed_path(graph, group)) for group in groups)


def _closed_path(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """The shortest path from ``group[0]`` back to itself inside ``group`` (breadth first)."""
    start, members = group[0], set(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for after in sorted(graph[node] & members):
                if after == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start] if node != start else [start, start]
                if after not in came_from:
                    came_from[after] = node
                    following.append(after)
        frontier = following
    raise AssertionError(f"{group} is not strongly connected")
