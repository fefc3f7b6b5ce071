"""Load a script of ``bench/`` as a module, for the tests of the tools there (they are scripts, not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench(script: str, name: str) -> ModuleType:
    """``bench/<script>`` imported as module ``name`` (registered in ``sys.modules``: its dataclasses look their
    module up)."""
    spec = importlib.util.spec_from_file_location(name, BENCH / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
