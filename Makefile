# Two entry points (README.md): `make run` serves the demo site, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The scorer (this folder, nlgboard) and the board (server/, nlgboard-server), both editable;
# pip extras of the board (test; CI adds the embedding model: NLGBOARD_EXTRAS=test,semantic)
comma := ,
EXTRAS ?= $(or $(NLGBOARD_EXTRAS),test)
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: run test test-all check lint install clean

# setup.py builds METEOR's and TER's searches and chrF++'s statistics (scorer/meteor/_search.c,
# scorer/metrics/_tercom.c, scorer/metrics/_chrf.c): a change to any of them reinstalls.
BUILT := pyproject.toml server/pyproject.toml setup.py scorer/meteor/_search.c scorer/metrics/_tercom.c \
	scorer/metrics/_chrf.c

# uv (Astral's installer, pinned), fetched with pip into build/uv; without it, pip installs.
UV_VERSION := 0.13.9
UV := build/uv/bin/uv
$(UV):
	-$(PYTHON) -m pip install --quiet --disable-pip-version-check --target build/uv uv==$(UV_VERSION)

# make install (and so lint, check, test) installs with uv too, where it could be fetched: the
# same packages at the same versions as pip's install (all 136 of the test extra's, compared),
# the C extensions built in the tree as setup.py builds them, in about half pip's time. Extras
# with semantic (CI's) install with pip: the CPU torch wheel is on pip's path (its configuration),
# not uv's. uv's venv has no pip; pip's path (`python -m venv`) adds it to an existing venv.
# --compile-bytecode, as pip does: compiled on first import instead, a dependency's invalid
# escape (trueskill's) warns, which the tests' filterwarnings=error turns into a SyntaxError.
$(STAMP): $(BUILT) | $(UV)
	@set -e; if [ -x $(UV) ] && [ -z "$(findstring semantic,$(EXTRAS))" ]; then \
	  [ -x $(BIN)/python ] || $(UV) venv --quiet $(VENV); \
	  $(UV) pip install --quiet --compile-bytecode --python $(BIN)/python -e . -e './server[$(EXTRAS)]'; \
	else \
	  $(PYTHON) -m venv $(VENV); \
	  $(BIN)/pip install --quiet --upgrade pip; \
	  $(BIN)/pip install --quiet -e . -e './server[$(EXTRAS)]'; \
	fi
	touch $(STAMP)

# make run needs the board only, not the test tools, and installs it with uv (Astral's
# installer): on a fresh machine pip takes ~26 s to make the venv and unpack the server's
# 55 wheels, uv ~8 s with its own download of them. pip stays the fallback where uv cannot be
# fetched (and installs the semantic extra, above).
BASE_STAMP := $(VENV)/.installed-base

# (Neither compiles modules up front (pip: --no-compile): ~10 s, done anyway on first import.
# uv's venv has no pip (seeding it cost ~1.5 s): pip's path of make install adds it.)
$(BASE_STAMP): $(BUILT) | $(UV)
	@set -e; if [ -x $(UV) ]; then \
	  [ -x $(BIN)/python ] || $(UV) venv --quiet $(VENV); \
	  $(UV) pip install --quiet --python $(BIN)/python -e . -e ./server; \
	else \
	  $(PYTHON) -m venv $(VENV) && $(BIN)/pip install --quiet --no-compile -e . -e ./server; \
	fi
	touch $(BASE_STAMP)

install: $(STAMP)

run: $(BASE_STAMP)
	$(BIN)/nlgboard run --upgrade --demo --host 127.0.0.1 --port 5000

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
# The exhaustive sweeps (whole corpora against the slowest official tools, the whole attack in
# process) add ~20 CPU-minutes; make test runs a sample of each, make test-all everything.
# Three test processes on the two cores: a third of the tests wait on servers, jars and
# browsers they start, so two processes left the cores idle a third of the time.
test: lint $(AXE) | $(UV)
	$(BIN)/pytest -n 3 --dist worksteal -m "not exhaustive" $(UNIT) tests/oracles tests/integration tests/browser tests/install

test-all: lint $(AXE) | $(UV)
	$(BIN)/pytest -n 3 --dist worksteal $(UNIT) tests/oracles tests/integration tests/browser tests/install

# The inner loop: lint and the tests without servers, less the slow ones (full-size real data,
# network training), which make test runs. The training module is left out whole: collecting it
# imports torch.
check: lint
	$(BIN)/pytest -n 2 --dist worksteal -m "not slow" $(UNIT) --ignore=tests/baselines/test_baseline_training.py

clean:
	rm -rf $(VENV) instance .pytest_cache build/uv
