"""Print the rates of a pytest-benchmark JSON (``make bench`` writes build/bench.json): hands/s or calls/s per
benchmark, from what each recorded in ``extra_info``, else items / the median round.

    python bench/rates.py build/bench.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def rates(run: dict) -> list[tuple[str, str]]:
    rows = []
    for bench in run.get("benchmarks", []):
        info = bench.get("extra_info", {})
        shown = [f"{value:,.0f} {key}" for key, value in info.items()
                 if isinstance(value, (int, float)) and ("/s" in key or "per_second" in key)]
        if not shown and info.get("items"):
            shown = [f"{info['items'] / bench['stats']['median']:,.0f} {info.get('unit', 'items/s')}"]
        if not shown:
            shown = [f"{bench['stats']['ops']:,.1f} rounds/s"]
        rows.append((bench["fullname"].split("::")[-1] if "fullname" in bench else bench["name"], ", ".join(shown)))
    return rows


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    run = json.loads(Path(argv[0]).read_text())
    for name, shown in rates(run):
        print(f"{name:70} {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
