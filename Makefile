# Parça Bul. `make run` serves the whole product on the embedded default; `make test` runs the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The front-end libraries (htmx, panzoom, Chart.js, Swagger UI, ...): package.json's "vendor" lists each file, and
# .ci/build-assets.mjs installs the packages and fills app/static/vendor with them; the Dockerfile runs the same script.
ASSETS := app/static/vendor/.built
CATALOGS := $(wildcard translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)

.PHONY: run test test-setup lint format translations assets worker scheduler bench bench-catalog bench-browse bench-dashboard bench-scan bench-shelf bench-load bench-instructions bench-suppliers clean

run: $(VENV)/.runtime $(ASSETS) $(COMPILED)
	$(BIN)/python -m app.launcher

test: test-setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# What `make test` needs installed and built (CI builds it once, then runs the two backends' suites side by side).
test-setup: $(VENV)/.dev $(ASSETS) $(COMPILED)

lint: $(VENV)/.dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports --no-cache --no-logo

format: $(VENV)/.dev
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

worker: $(VENV)/.runtime $(COMPILED)
	$(BIN)/python worker.py

scheduler: $(VENV)/.runtime
	$(BIN)/python worker.py scheduler

bench: $(VENV)/.dev
	$(BIN)/python -m bench.decode

bench-catalog: $(VENV)/.dev $(COMPILED)
	$(BIN)/python -m bench.catalog

bench-browse: $(VENV)/.dev $(COMPILED)
	$(BIN)/python -m bench.browse

bench-dashboard: $(VENV)/.dev $(COMPILED)
	$(BIN)/python -m bench.dashboard

bench-scan: $(VENV)/.dev $(COMPILED)
	$(BIN)/python -m bench.scan

bench-shelf: $(VENV)/.dev
	$(BIN)/python -m bench.shelf

bench-load: $(VENV)/.dev $(COMPILED)
	$(BIN)/python -m bench.load

bench-instructions: $(VENV)/.dev $(COMPILED)
	$(BIN)/python -m bench.instructions

bench-suppliers: $(VENV)/.dev $(COMPILED)
	$(BIN)/python -m bench.suppliers

translations: $(COMPILED)

assets: $(ASSETS)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(VENV)/.runtime $@

$(ASSETS): package.json package-lock.json .ci/build-assets.mjs
	node .ci/build-assets.mjs
	touch $@

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po | $(VENV)/.runtime
	$(BIN)/pybabel compile -d translations -l $* --statistics

clean:
	rm -rf $(VENV) node_modules app/static/vendor $(COMPILED) .pytest_cache
