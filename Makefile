# faultline: the two commands of the README are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
KAFKA_PORT ?= 9092

.PHONY: demo test test-unit lint bench chaos system-deps kafka-up kafka-down venv schemas typecheck clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required")'
	@# a venv left half-made by an interrupted set-up has no pip: make it again
	@$(PY) -m pip --version >/dev/null 2>&1 || { rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }
	@echo "[setup] installing faultline and its dependencies into $(VENV) ..."
	@$(PY) -m pip install -q --upgrade pip
	@# setuptools tells every editable install to mind same-named folders (ours are the packages): keep set-up quiet
	@PYTHONWARNINGS=ignore $(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

demo: venv
	$(PY) -m deploy.demo

system-deps:
	@deploy/install-system-deps.sh

test: venv system-deps
	$(PY) -m pytest -q

test-unit: venv
	$(PY) -m pytest -q tests/unit

bench: venv
	$(PY) -m tests.bench.run

chaos: venv
	$(PY) -m tests.chaos

kafka-up: venv
	$(PY) -m deploy.local_kafka up --port $(KAFKA_PORT)

kafka-down: venv
	$(PY) -m deploy.local_kafka down

schemas: venv
	$(PY) -m schemas.export

typecheck: venv
	$(PY) -m mypy

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m mypy

clean:
	$(PY) -m deploy.local_kafka down || true
	rm -rf .data
