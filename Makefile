# Two entry points: `make serve` (install + start every domain over HTTP) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
# A second environment with the official mcp 1.x SDK (it cannot share a venv with fastmcp 4),
# used by the tests to prove older clients work.
MCP1 = .venv-mcp1

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,export]'
	touch $@

$(MCP1)/.installed:
	$(PYTHON) -m venv $(MCP1)
	$(MCP1)/bin/pip install -q 'mcp==1.30.0'
	touch $@

.PHONY: install serve test lint format
install: $(BIN)/.installed

serve: install
	$(BIN)/toolground serve --domains all

test: install $(MCP1)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n 2

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
