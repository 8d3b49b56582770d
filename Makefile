# Two entry points (README.md): `make run` serves the demo site, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# pip extras; CI adds the optional embedding model: NLGBOARD_EXTRAS=test,semantic
comma := ,
EXTRAS ?= $(or $(NLGBOARD_EXTRAS),test)
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: run test check lint install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/nlgboard db upgrade
	$(BIN)/nlgboard demo
	$(BIN)/nlgboard run --host 127.0.0.1 --port 5000

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy

# Unit tests (no Redis/PostgreSQL) on both cores, then the tests that start real servers and
# workers, one at a time.
test: lint
	$(BIN)/pytest -n 2 tests/unit
	$(BIN)/pytest tests/integration tests/browser

# The inner loop: lint and the unit tests, no servers.
check: lint
	$(BIN)/pytest -n 2 tests/unit

clean:
	rm -rf $(VENV) instance .pytest_cache
