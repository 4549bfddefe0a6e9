# Targets work on a fresh clone with only python3 and access to PyPI:
# the virtualenv is created on first use and refreshed whenever
# pyproject.toml changes (tracked by $(STAMP)).

PY    ?= python3
VENV  ?= .venv
BIN   := $(VENV)/bin
STAMP := $(VENV)/.stamp
# Only lint directories that exist (bench/ may be absent in a fresh clone).
LINT_DIRS := $(wildcard engine bot cogs tests bench)

.PHONY: test lint typecheck pytest run bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[dev]'
	@touch $(STAMP)

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_DIRS)

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest

run: $(STAMP)
	$(BIN)/python -m bot --play-offline

bench: $(STAMP)
	@set -e; found=0; \
	for f in bench/*.py; do \
		[ -e "$$f" ] || continue; found=1; \
		echo "== $$f"; $(BIN)/python "$$f"; \
	done; \
	[ $$found = 1 ] || echo "no benchmarks in bench/"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build *.egg-info
