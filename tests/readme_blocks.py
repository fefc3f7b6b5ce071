"""The README's Python examples, as blocks of code: `tests/test_readme.py` runs them in this checkout, the wheel
test (`tests/packaging/test_wheel.py`) and cibuildwheel's test-command run them against an installed wheel.

Run as a script (``python tests/readme_blocks.py README.md``) it executes every block in order and exits non-zero
on the first failure; it imports nothing from the source tree, so it checks whatever ``hupai`` is installed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks(path: Path = README) -> list[str]:
    """The ```python fenced blocks of a Markdown file, in order."""
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def run_block(code: str, index: int) -> None:
    exec(compile(code, f"README.md block {index}", "exec"), {})


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else README
    blocks = python_blocks(path)
    if not blocks:
        print(f"{path}: no python blocks", file=sys.stderr)
        return 1
    for index, code in enumerate(blocks):
        run_block(code, index)
    import hupai

    print(f"hupai {hupai.__version__} from {Path(hupai.__file__).parent}: {len(blocks)} README blocks ran")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
