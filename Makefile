# Targets work on a fresh clone with only python3 and access to PyPI:
# the virtualenv is created on first use and refreshed whenever
# pyproject.toml or constraints-dev.txt changes (tracked by $(STAMP)).
# The development tools are installed at the exact versions of
# constraints-dev.txt, so a new release of ruff/mypy/pytest cannot break
# `make test` on a fresh clone.

PY    ?= python3
VENV  ?= .venv
BIN   := $(VENV)/bin
STAMP := $(VENV)/.stamp
CONSTRAINTS := constraints-dev.txt
# Only lint directories that exist (bench/ may be absent in a fresh clone).
LINT_DIRS := $(wildcard engine bot cogs tests bench)

# Test processes (pytest-xdist): one more than the cores, so that a core one worker leaves
# idle (a PostgreSQL round trip, a simcord settle wait, a browser or subprocess at work)
# runs another's tests; `make test PYTEST_WORKERS=0` runs in one process.
# PYTHONDONTWRITEBYTECODE is cleared for the tests: with it set, every worker compiles the
# project and rewrites every test module's asserts again (~11 CPU s each) instead of reading
# the bytecode cached by the last run (__pycache__ is ignored by git); on a fresh clone the
# first run's controller writes it once before the workers start (tests/bytecode.py).
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal

# mypy beside the tests: one process (~15 CPU s cold on a fresh clone, ~1 s with its cache)
# that shares the cores with the workers rather than holding them up. Not niced: beside
# more workers than cores a niced mypy would get a core only at the end and finish alone
# there while the other core idles. Its report comes after the tests', and the target fails
# if either failed.
TYPES_LOG := $(VENV)/mypy.log
define WITH_TYPES
	@$(BIN)/mypy > $(TYPES_LOG) 2>&1 & types=$$!; \
	$(1); tests=$$?; \
	wait $$types; typed=$$?; \
	echo "mypy:"; cat $(TYPES_LOG); \
	test $$tests = 0 && test $$typed = 0
endef

.PHONY: test check fast lint typecheck pytest run sync bench clean venv activity durations

venv: $(STAMP)

$(STAMP): pyproject.toml $(CONSTRAINTS)
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -c $(CONSTRAINTS) pip
	$(BIN)/python -m pip install -c $(CONSTRAINTS) -e '.[dev]'
	@touch $(STAMP)

# The whole suite; tests marked slow run a sample of their cases (DURAK_FULL_SWEEP=1: all).
test: lint
	$(call WITH_TYPES,$(PYTEST))

# Before a commit: lint, types and the fast tests (nothing marked slow), in under a minute.
check: lint
	$(call WITH_TYPES,$(PYTEST) -m "not slow")

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_DIRS)

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(PYTEST)

fast: $(STAMP)
	$(PYTEST) -m "not slow"

# Rewrites tests/durations.json from a whole run: the tests that take long, started first
# by a clone's first run, before pytest's cache has timed them (tests/conftest.py).
durations: $(STAMP)
	$(PYTEST) --save-durations

# The bot with DISCORD_TOKEN (from .env or the environment); without it, the terminal game.
run: $(STAMP)
	$(BIN)/python -m bot --play-offline

# Registers the slash commands for every server and exits: once, and after each upgrade.
sync: $(STAMP)
	$(BIN)/python -m bot --sync global

bench: $(STAMP)
	@set -e; found=0; \
	for f in bench/*.py; do \
		[ -e "$$f" ] || continue; found=1; \
		echo "== $$f"; $(BIN)/python "$$f"; \
	done; \
	[ $$found = 1 ] || echo "no benchmarks in bench/"

# The Activity's client (web/activity/ -> bot/activity/static/): for developers who change
# it, with Node and npm; running and testing the bot never needs them (docs/activity.md).
activity:
	cd web/activity && npm ci --no-audit --no-fund && node build.mjs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build *.egg-info
