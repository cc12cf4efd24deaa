# Two entry points: `make serve` (install + start every domain over HTTP) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
# A second environment with the official mcp 1.x SDK (it cannot share a venv with fastmcp 4),
# used by the tests to prove older clients work.
MCP1 = .venv-mcp1
# verl 0.9.1 with CPU torch, plus skyrl-gym (two small packages), for tests/test_train_verl.py; verl's
# pins (transformers<5.11) differ from the other venvs'. uv installs it in ~30 s where pip takes ~4 min
# (no bytecode compiling, parallel downloads); it reads no pip config, so pip's find-links (where a
# CPU torch wheel may wait) is passed on.
VERL = .venv-verl
VERL_FIND_LINKS = $(shell $(PYTHON) -m pip config get global.find-links 2>/dev/null)
# TRL 1.16 with CPU torch and toolground's train extra, for tests/test_train_trl.py (GRPO on a tiny
# model built at test time). uv like verl's: ~25 s cold where pip takes ~3 min; pip's find-links
# (a local CPU torch wheel) is passed on.
TRAIN = .venv-train
TRAIN_FIND_LINKS = $(shell $(PYTHON) -m pip config get global.find-links 2>/dev/null)
# Ray 2.60 (toolground's ray extra) for tests/test_scale_ray.py, which drives `serve --ray` from a
# script run here; httpx and pytest because that script reuses the scale-out tests' helpers. uv like
# the others' (~25 s cold), compiling bytecode (+~25 s) as pip would: a `serve --ray` starts ~14
# Python processes, and without .pyc files (PYTHONDONTWRITEBYTECODE) each one compiles Ray and
# fastmcp from source, which took the test's cluster start from ~35 s to ~100 s.
RAY = .venv-ray

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,export]'
	touch $@

$(MCP1)/.installed:
	$(PYTHON) -m venv $(MCP1)
	$(MCP1)/bin/pip install -q 'mcp==1.30.0'
	touch $@

$(VERL)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VERL)
	echo '*' > $(VERL)/.gitignore
	$(VERL)/bin/pip install -q 'uv==0.13.9'
	$(VERL)/bin/uv pip install -q --python $(VERL)/bin/python $(addprefix --find-links ,$(VERL_FIND_LINKS)) \
		'verl==0.9.1' 'fastapi==0.165.0' 'torch==2.13.0' 'skyrl-gym==0.4.0' -e .
	touch $@

$(TRAIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(TRAIN)
	echo '*' > $(TRAIN)/.gitignore
	$(TRAIN)/bin/pip install -q 'uv==0.13.9'
	$(TRAIN)/bin/uv pip install -q --python $(TRAIN)/bin/python $(addprefix --find-links ,$(TRAIN_FIND_LINKS)) \
		'torch==2.13.0' -e '.[train,export]'
	touch $@

$(RAY)/.installed: pyproject.toml
	$(PYTHON) -m venv $(RAY)
	echo '*' > $(RAY)/.gitignore
	$(RAY)/bin/pip install -q 'uv==0.13.9'
	$(RAY)/bin/uv pip install -q --compile-bytecode --python $(RAY)/bin/python -e '.[ray]' 'httpx==0.28.1' 'pytest==9.2.0'
	touch $@

.PHONY: install serve test lint format
install: $(BIN)/.installed

serve: install
	$(BIN)/toolground serve --domains all

# --dist loadfile: a test module's expensive fixture (a 2,000-task generation) runs once, on one
# worker, instead of once on each
test: install $(MCP1)/.installed $(VERL)/.installed $(TRAIN)/.installed $(RAY)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n 2 --dist loadfile

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
