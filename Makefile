# Two commands set up everything from a fresh clone: `make test` and `make run`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.hupai-installed
# Python files too: the editable install maps the files that existed when it ran, so a new module needs a rerun.
SOURCES := pyproject.toml CMakeLists.txt $(wildcard cpp/*.cpp cpp/*.hpp) $(shell find python -name "*.py" -o -name "*.pyi")

.PHONY: test run bench install lint clean fuzz

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Editable install: Python sources are used in place, the C++ core is rebuilt when its sources change.
$(STAMP): $(PY) $(SOURCES)
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q -n 2 tests

run: $(STAMP)
	$(VENV)/bin/hupai analyze "123m456p789s1122z" "1112345678999m" "19m19p19s1234567z1m" "123m456p789s1122z3z"
	$(VENV)/bin/hupai analyze "123m456p789s11z35s" --jokers 1
	$(VENV)/bin/hupai analyze "14m259s369p12467z" --forms knitted
	$(VENV)/bin/hupai simulate --rules guangdong --hands 200 --bot greedy

bench: $(STAMP)
	$(PY) -m pip install --quiet -e ".[test,bench]"
	$(PY) -m pytest bench --benchmark-only --benchmark-columns=min,median,mean,ops,rounds

# Long fuzz runs (hypothesis profile "fuzz", tests/conftest.py); `make test` runs the same suites briefly.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q -n 2 tests/fuzz/test_state_fuzz.py

lint: $(STAMP)
	$(PY) -m pip install --quiet ruff
	$(VENV)/bin/ruff check python tests bench

clean:
	rm -rf build $(VENV) .pytest_cache
