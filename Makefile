# Two commands do all set-up on a fresh machine: `make run` (the bot) and `make test` (every check).
PY ?= python3
VENV := .venv
UV := $(VENV)/bin/uv
BIN := $(VENV)/bin

.PHONY: run test lint check demo bench balance soak screens taps setup clean

$(BIN)/uv:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet uv==0.13.9

$(VENV)/.synced: pyproject.toml uv.lock | $(BIN)/uv
	$(UV) sync --frozen --inexact --quiet
	@touch $@

setup: $(VENV)/.synced

run: setup  ## Run the bot (reads .env; SQLite by default)
	$(BIN)/python -m bot

lint: setup  ## Lint, format check, types and import contracts
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy games bot tests benchmarks scripts
	$(BIN)/lint-imports

test: lint  ## Every check and every test (one pytest-xdist worker per core, at most 8)
	$(BIN)/pytest -n auto --maxprocesses 8 --dist worksteal

demo: setup  ## Play whole games with AI seats through the real bot offline; writes demo-output/
	$(BIN)/python -m scripts.demo --out demo-output

screens: setup  ## Screenshots of every game's thread, board and panel as Discord shows them (installs chromium if missing)
	$(BIN)/python -m scripts.screens --out docs/screenshots/preview

bench: setup  ## Performance suite; writes bench-output/report.md
	$(BIN)/python -m benchmarks --out bench-output

balance: setup  ## Game balance from all-AI playouts of every setting; writes bench-output/balance.md
	$(BIN)/python -m benchmarks.balance --out bench-output $(BALANCE_ARGS)

taps: setup  ## Taps a person needs per decision in seeded whole games of every game (TAPS_ARGS="--no-follow")
	$(BIN)/python -m scripts.taps $(TAPS_ARGS)

soak: setup  ## Long resilience runs (kills, faults, leak sweeps, abuse, load); writes soak-output/report.md (SOAK_ARGS="--scale ci": CI's third)
	$(BIN)/python -m scripts.soak --out soak-output $(SOAK_ARGS)

clean:
	rm -rf $(VENV) demo-output bench-output soak-output
