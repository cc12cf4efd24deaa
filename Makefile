# Two entry points: `make serve` (install + start every domain over HTTP) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,export]'
	touch $@

.PHONY: install serve test lint format
install: $(BIN)/.installed

serve: install
	$(BIN)/toolground serve --domains all

test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n 2

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
