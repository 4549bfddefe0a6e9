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

.PHONY: test lint typecheck pytest run bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml $(CONSTRAINTS)
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -c $(CONSTRAINTS) pip
	$(BIN)/python -m pip install -c $(CONSTRAINTS) -e '.[dev]'
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
