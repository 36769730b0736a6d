# ddz-tools: `make run` runs the bundled examples, `make test` the tests,
# `make bench` the benchmarks.  Each creates .venv and installs the package.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DDZ := $(VENV)/bin/ddz
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-slow bench peers clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(DDZ) moves --file data/hands.txt
	$(DDZ) classify 333444555666 --rules douzero

test: $(STAMP)
	$(PY) -m pytest

test-slow: $(STAMP)
	$(PY) -m pytest -m slow

peers: $(STAMP)
	$(PY) -m pip install -q --no-deps douzero rlcard doudizhu-resolver termcolor

bench: peers
	$(PY) benchmarks/movegen.py

clean:
	rm -rf $(VENV) build *.egg-info
