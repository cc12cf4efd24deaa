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
# toolground as `pip install toolground` leaves it: the core dependencies only, no extra, for
# tests/test_base_install.py, which installs a wheel of the tree it tests into it and runs every
# subcommand from outside the repository.
BASE = .venv-base
# The exact versions the tests run on; pyproject.toml declares ranges (constraints*.txt say why three).
PINS = constraints.txt

$(BIN)/.installed: pyproject.toml $(PINS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c $(PINS) -e '.[test,export]'
	touch $@

$(MCP1)/.installed: constraints-mcp1.txt
	$(PYTHON) -m venv $(MCP1)
	$(MCP1)/bin/pip install -q -c constraints-mcp1.txt 'mcp<2'
	touch $@

$(VERL)/.installed: pyproject.toml constraints-verl.txt
	$(PYTHON) -m venv $(VERL)
	echo '*' > $(VERL)/.gitignore
	$(VERL)/bin/pip install -q -c constraints-verl.txt uv
	$(VERL)/bin/uv pip install -q --python $(VERL)/bin/python $(addprefix --find-links ,$(VERL_FIND_LINKS)) \
		-c constraints-verl.txt verl fastapi torch skyrl-gym -e .
	touch $@

$(TRAIN)/.installed: pyproject.toml $(PINS)
	$(PYTHON) -m venv $(TRAIN)
	echo '*' > $(TRAIN)/.gitignore
	$(TRAIN)/bin/pip install -q -c $(PINS) uv
	$(TRAIN)/bin/uv pip install -q --python $(TRAIN)/bin/python $(addprefix --find-links ,$(TRAIN_FIND_LINKS)) \
		-c $(PINS) torch -e '.[train,export]'
	touch $@

$(RAY)/.installed: pyproject.toml $(PINS)
	$(PYTHON) -m venv $(RAY)
	echo '*' > $(RAY)/.gitignore
	$(RAY)/bin/pip install -q -c $(PINS) uv
	$(RAY)/bin/uv pip install -q --compile-bytecode --python $(RAY)/bin/python -c $(PINS) -e '.[ray]' pytest
	touch $@

# pyproject's core dependencies and nothing else. toolground itself is not installed here: the
# test builds a wheel of the tree it runs on and installs that (--no-deps), so what it tests is never
# a stale install, and `pip check` there proves these dependencies are the wheel's.
$(BASE)/.installed: pyproject.toml $(PINS)
	$(PYTHON) -m venv $(BASE)
	echo '*' > $(BASE)/.gitignore
	$(BASE)/bin/pip install -q --upgrade pip
	$(PYTHON) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" \
		> $(BASE)/requirements.txt
	$(BASE)/bin/pip install -q -c $(PINS) -r $(BASE)/requirements.txt
	touch $@

.PHONY: install base serve test lint format
install: $(BIN)/.installed

base: $(BASE)/.installed

serve: install
	$(BIN)/toolground serve --domains all

# --dist loadfile: a test module's expensive fixture (a 2,000-task generation) runs once, on one
# worker, instead of once on each
test: install $(MCP1)/.installed $(VERL)/.installed $(TRAIN)/.installed $(RAY)/.installed $(BASE)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n 2 --dist loadfile

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
