"""``backend="ray"``: the same chunks as Ray tasks on a local instance give the local backend's result."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import hupai
import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'hupai[ray]'; make test "
                                        "installs it)")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def _without_run(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.to_dict()
    data.pop("run")
    return data


@pytest.mark.parametrize("rules", ["guangdong", "kawuxing"])
def test_ray_results_equal_the_local_backend(local_ray: None, rules: str) -> None:
    kwargs: dict[str, Any] = {"hands": 40, "bots": ["greedy", "random", "random", "random"][
        :hupai.rules.get(rules).num_players], "seed": 8, "chunk_size": 6}
    on_ray = hupai.simulate(rules, backend="ray", workers=2, **kwargs)
    local = hupai.simulate(rules, workers=1, **kwargs)
    assert on_ray.backend == "ray" and on_ray.hands == 40
    assert _without_run(on_ray) == _without_run(local)


def test_ray_takes_lambdas_through_cloudpickle(local_ray: None) -> None:
    from hupai.bots import RandomBot

    result = hupai.simulate("guangdong", hands=6, bots=lambda seed: RandomBot(seed), backend="ray", workers=2,
                            chunk_size=3)
    assert result.hands == 6
