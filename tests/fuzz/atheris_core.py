"""libFuzzer-driven fuzzing of the hand-analysis entry points and the core's scans (``make fuzz``; needs the
optional ``fuzz`` extra, atheris). Not collected by pytest.

Run: ``python tests/fuzz/atheris_core.py -max_total_time=120``. Python code is coverage-instrumented; the C++
core is not (that would need a clang build with -fsanitize=fuzzer), so inside the core this is a random search
that the Python-side coverage steers. Any exception but the documented ones is a finding and stops the run
with the input that caused it; at the end the calls are tallied by outcome.
"""

from __future__ import annotations

import atexit
import sys
from collections import Counter
from typing import Any

import atheris

with atheris.instrument_imports():
    import hupai
    import numpy as np
    from hupai import InvalidHand, _core
    from hupai.tiles import format_tiles, kind_name, to_counts

TALLY: Counter[str] = Counter()
DTYPES = [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64, np.float64, np.bool_, ">i4"]


def _int(data: atheris.FuzzedDataProvider) -> Any:
    choice = data.ConsumeIntInRange(0, 9)
    if choice < 5:
        return data.ConsumeIntInRange(-2, 9)
    if choice == 5:
        return data.ConsumeInt(16)  # up to 2**127 either way
    if choice == 6:
        return np.int64(data.ConsumeIntInRange(-(2**63), 2**63 - 1))
    if choice == 7:
        return data.ConsumeBool()
    if choice == 8:
        return data.ConsumeFloat()
    return None


def _hand(data: atheris.FuzzedDataProvider) -> Any:
    choice = data.ConsumeIntInRange(0, 6)
    raw = data.ConsumeBytes(data.ConsumeIntInRange(0, 40))
    if choice == 0:
        return raw
    if choice == 1:
        return bytearray(raw)
    if choice == 2:
        return memoryview(raw)
    if choice == 3:
        return data.ConsumeUnicodeNoSurrogates(30)
    if choice == 4:
        return list(raw)
    array = np.frombuffer(raw, dtype=np.uint8).astype(DTYPES[data.ConsumeIntInRange(0, len(DTYPES) - 1)])
    if choice == 6 and array.size:
        array = np.repeat(array, 2)[::2]  # a strided view
    return array


def _call(name: str, function: Any, *args: Any, allowed: tuple[type[BaseException], ...] = (InvalidHand,),
          **kwargs: Any) -> None:
    try:
        function(*args, **kwargs)
    except allowed as error:
        TALLY[f"{name} {type(error).__name__}"] += 1
    else:
        TALLY[f"{name} ok"] += 1


def one_input(buffer: bytes) -> None:
    data = atheris.FuzzedDataProvider(buffer)
    target = data.ConsumeIntInRange(0, 7)
    hand = _hand(data)
    keywords = {name: _int(data) for name in ("jokers", "melds", "forms", "joker_kinds") if data.ConsumeBool()}
    if target == 0:
        _call("shanten", hupai.shanten, hand, **keywords)
    elif target == 1:
        _call("is_win", hupai.is_win, hand, **keywords)
    elif target == 2:
        _call("waits", hupai.waits, hand, **keywords)
    elif target == 3:
        if not isinstance(keywords.get("jokers"), int) or keywords["jokers"] <= 2:
            _call("decompositions", hupai.decompositions, hand, **keywords)
    elif target == 4:
        _call("to_counts", to_counts, hand)
        _call("format_tiles", format_tiles, hand)
        _call("kind_name", kind_name, _int(data))
    elif target == 5:
        raw = data.ConsumeBytes(34 * data.ConsumeIntInRange(0, 8))
        rows = (np.frombuffer(raw[: len(raw) // 34 * 34], dtype=np.uint8) % 5).reshape(-1, 34)
        _call("shanten_batch", hupai.shanten_batch, rows, threads=data.ConsumeIntInRange(1, 2), **keywords)
    elif target == 6:
        hands = [bytearray(data.ConsumeBytes(34)) for _ in range(data.ConsumeIntInRange(0, 5))]
        ints = [_int(data) for _ in range(5)]
        _call("claim_scan", _core.claim_scan, hands, [0] * len(hands), [None] * len(hands), *ints,
              allowed=(TypeError, ValueError))
    else:
        _call("turn_scan", _core.turn_scan, hand, _int(data), _int(data), _int(data), _int(data),
              allowed=(TypeError, ValueError))


def _report() -> None:
    total = sum(TALLY.values())
    print(f"\natheris: {total} calls", file=sys.stderr)
    for key, calls in sorted(TALLY.items()):
        print(f"  {key:32s} {calls}", file=sys.stderr)


if __name__ == "__main__":
    atexit.register(_report)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
