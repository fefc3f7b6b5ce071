# Two commands set up everything from a fresh clone: `make test` and `make run`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.hupai-installed
# Python files too: the editable install maps the files that existed when it ran, so a new module needs a rerun.
SOURCES := pyproject.toml CMakeLists.txt $(wildcard cpp/*.cpp cpp/*.hpp) $(shell find python -name "*.py" -o -name "*.pyi")

.PHONY: test run bench bench-check bench-check-quick install lint typecheck docs docs-serve wheel test-wheel clean sanitize fuzz serve chaos

# One venv and one C++ build (build/{wheel_tag}) for every target. pip builds in the venv itself
# (--no-build-isolation): an isolated build environment is new at every install, and scikit-build-core clears the
# build directory when its own path changes, so every install (another extra, `make serve` after `make run`)
# would recompile the whole core. The build's requirements ([build-system] in pyproject.toml, and CMake where
# scikit-build-core finds none it can use) are installed into the venv first.
BUILD_REQUIRES := "scikit-build-core>=0.10" "pybind11>=2.13"
BUILD_STAMP    := $(VENV)/.hupai-build-requires
PIP_INSTALL    := $(PY) -m pip install --quiet --no-build-isolation

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(BUILD_STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet $(BUILD_REQUIRES)
	tools=$$($(PY) -c "from scikit_build_core.build import get_requires_for_build_editable as r; print(*r())"); \
		[ -z "$$tools" ] || $(PY) -m pip install --quiet $$tools
	touch $(BUILD_STAMP)

# Editable install: Python sources are used in place, the C++ core is rebuilt when its sources change (only the
# files that changed). `make test` (and every tool target) installs what the tests need; `make run` and
# `make serve` only what they run, in the same venv, reusing the same build.
$(STAMP): $(BUILD_STAMP) $(SOURCES)
	$(PIP_INSTALL) -e ".[test,server-test]"
	touch $(STAMP)

RUN_STAMP   := $(VENV)/.hupai-run-installed
SERVE_STAMP := $(VENV)/.hupai-serve-installed

$(RUN_STAMP): $(BUILD_STAMP) $(SOURCES)
	$(PIP_INSTALL) -e ".[progress]"
	touch $(RUN_STAMP)

$(SERVE_STAMP): $(BUILD_STAMP) $(SOURCES)
	$(PIP_INSTALL) -e ".[server]"
	touch $(SERVE_STAMP)

install: $(STAMP)

test: $(STAMP)
	./.ci/system-deps
	$(PY) -m pytest -q -n 2 tests

# A short seeded simulation of every rule system present (a progress bar on a terminal), after the examples.
RUN_HANDS ?= 300
run: $(RUN_STAMP)
	$(VENV)/bin/hupai analyze "123m456p789s1122z" "1112345678999m" "19m19p19s1234567z1m" "123m456p789s1122z3z"
	$(VENV)/bin/hupai analyze "123m456p789s11z35s" --jokers 1
	$(VENV)/bin/hupai analyze "14m259s369p12467z" --forms knitted
	for rules in $$($(PY) -c "import hupai.simulate as s; print(' '.join(s.playable()))"); do \
		$(VENV)/bin/hupai simulate --rules $$rules --hands $(RUN_HANDS) --bots greedy --workers 2 \
			--seed 1 || exit $$?; echo; done

# The reference server on http://127.0.0.1:8000 with its tables in hupai.db (SQLite: no PostgreSQL driver).
serve: $(SERVE_STAMP)
	$(VENV)/bin/hupai serve --db sqlite:///hupai.db

# The chaos test at length: a real `hupai serve` killed with SIGKILL CHAOS_KILLS times at random moments over every
# rule system, with a read-only outage, on SQLite and on a throwaway PostgreSQL (`make test` runs 3 kills); and two
# `hupai serve --cluster` processes killed in turn.
CHAOS_KILLS ?= 12
chaos: $(STAMP)
	./.ci/system-deps
	HUPAI_CHAOS_KILLS=$(CHAOS_KILLS) HUPAI_CHAOS_SEED=$${HUPAI_CHAOS_SEED:-$$RANDOM} \
		$(PY) -m pytest -q -p no:cacheprovider tests/serve/test_serve_chaos.py tests/serve/test_serve_cluster_chaos.py

# Every benchmark, its pytest-benchmark JSON in build/bench.json, then the rates (hands/s, calls/s).
bench: $(STAMP)
	$(PIP_INSTALL) -e ".[test,bench]"
	mkdir -p build
	$(PY) -m pytest bench --benchmark-only --benchmark-columns=min,median,ops,rounds --benchmark-json=build/bench.json
	$(PY) bench/rates.py build/bench.json

# The tracked workloads against bench/baseline.json (ratios to a reference measured in the same run): exits 1 on
# a regression. The quick mode (CI) takes under a minute.
bench-check: $(STAMP)
	$(PY) bench/check.py

bench-check-quick: $(STAMP)
	$(PY) bench/check.py --quick

lint: typecheck
	$(PY) -m pip install --quiet ruff
	$(VENV)/bin/ruff check python tests bench
	$(PY) -m mypy.stubtest hupai._core

# mypy --strict over python/hupai ([tool.mypy] in pyproject.toml): the package ships py.typed.
typecheck: $(STAMP)
	$(PY) -m pip install --quiet "mypy>=1.11"
	$(PY) -m mypy

# The documentation (docs/, mkdocs.yml), built strictly: a broken link or anchor or a page missing from the nav
# fails the build. The site goes to build/site (ignored, never committed).
docs: $(STAMP)
	$(PY) -m pip install --quiet "mkdocs>=1.6,<2"
	$(PY) -m mkdocs build --strict --site-dir build/site

docs-serve: $(STAMP)
	$(PY) -m pip install --quiet "mkdocs>=1.6,<2"
	$(PY) -m mkdocs serve

# A wheel and an sdist into dist/, built as a user's pip builds them (an isolated environment), in a build
# directory of their own so that the editable install's is left as it is. Binary wheels for every platform come
# from cibuildwheel ([tool.cibuildwheel], .github/workflows/wheels.yml).
wheel: $(STAMP)
	rm -rf dist
	$(PY) -m build --sdist --wheel --outdir dist -Cbuild-dir=build/dist/{wheel_tag} .

# The wheel and sdist built from this checkout, the wheel installed into a fresh venv and the README run there
# (tests/packaging; minutes, so `make test` skips it and CI runs it).
test-wheel: $(STAMP)
	HUPAI_SLOW=1 $(PY) -m pytest -q -p no:xdist tests/packaging

# The core built with AddressSanitizer + UndefinedBehaviorSanitizer (any UB fatal) in its own venv and build
# directory, and the core and engine tests run under it. Python is not instrumented, so libasan (and the
# libstdc++ it intercepts) is preloaded; leaks are not checked (the interpreter's own would drown them).
ASAN_VENV := .venv-asan
ASAN_PY   := $(ASAN_VENV)/bin/python
ASAN_RUN  := LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so)" \
             ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
SANITIZE_TESTS ?= tests/core tests/game

$(ASAN_PY):
	$(PYTHON) -m venv $(ASAN_VENV)
	$(ASAN_PY) -m pip install --quiet --upgrade pip

# The same build requirements as the main venv's, so that a second run rebuilds only what changed.
sanitize: $(ASAN_PY)
	$(ASAN_PY) -m pip install --quiet $(BUILD_REQUIRES)
	tools=$$($(ASAN_PY) -c "from scikit_build_core.build import get_requires_for_build_editable as r; print(*r())"); \
		[ -z "$$tools" ] || $(ASAN_PY) -m pip install --quiet $$tools
	$(ASAN_PY) -m pip install --quiet --no-build-isolation -e ".[test]" -Cbuild-dir=build/asan \
		-Ccmake.build-type=Debug -Ccmake.define.HUPAI_SANITIZE=ON
	$(ASAN_RUN) $(ASAN_PY) -m pytest -q -n 2 -p no:cacheprovider $(SANITIZE_TESTS)

# Long fuzz runs (hypothesis profile "fuzz", tests/conftest.py; `make test` runs the same suites briefly): the
# snapshot/log fuzz, the core's entry points (one process, so that the tally of calls by outcome is printed),
# then atheris for FUZZ_SECONDS if the optional `fuzz` extra installs.
FUZZ_SECONDS ?= 120
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q -n 2 tests/fuzz/test_state_fuzz.py
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q -p no:xdist -p no:cacheprovider tests/fuzz/test_fuzz_core.py
	if $(PIP_INSTALL) -e ".[test,fuzz]"; then \
		mkdir -p build/fuzz && $(PY) tests/fuzz/atheris_core.py -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=build/fuzz/; \
	else echo "atheris did not install: only the hypothesis suite ran"; fi

clean:
	rm -rf build dist $(VENV) $(ASAN_VENV) .pytest_cache
