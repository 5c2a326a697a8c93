# Parça Bul. `make run` serves the whole product on the embedded default; `make test` runs the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HTMX := app/static/vendor/htmx.min.js
# Swagger UI for /api/docs: the bundle and its stylesheet.
SWAGGER_UI := app/static/vendor/swagger-ui/swagger-ui-bundle.js
# panzoom: zoom and pan of the schema pictures (wheel, pinch, double tap).
PANZOOM := app/static/vendor/panzoom.min.js
# Chart.js: the admin dashboard's charts.
CHARTJS := app/static/vendor/chart.umd.min.js
ASSETS := $(HTMX) $(SWAGGER_UI) $(PANZOOM) $(CHARTJS)
CATALOGS := $(wildcard translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)

.PHONY: run test test-setup lint format translations assets worker scheduler bench bench-catalog bench-browse bench-dashboard clean

run: $(VENV)/.runtime $(ASSETS) $(COMPILED)
	$(BIN)/python -m app.core.launcher

test: test-setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# What `make test` needs installed and built (CI builds it once, then runs the two backends' suites side by side).
test-setup: $(VENV)/.dev $(ASSETS) $(COMPILED)

lint: $(VENV)/.dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

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

# SCARF_ANALYTICS=false: swagger-ui-dist's dependency must not report the install anywhere.
$(HTMX): package.json package-lock.json
	SCARF_ANALYTICS=false npm ci --no-audit --no-fund --loglevel=error
	mkdir -p $(dir $@)
	cp node_modules/htmx.org/dist/htmx.min.js $@

$(SWAGGER_UI): $(HTMX)
	test -d node_modules/swagger-ui-dist || SCARF_ANALYTICS=false npm ci --no-audit --no-fund --loglevel=error
	mkdir -p $(dir $@)
	cp node_modules/swagger-ui-dist/swagger-ui.css $(dir $@)
	cp node_modules/swagger-ui-dist/swagger-ui-bundle.js $@

$(PANZOOM): $(HTMX)
	test -d node_modules/panzoom || SCARF_ANALYTICS=false npm ci --no-audit --no-fund --loglevel=error
	cp node_modules/panzoom/dist/panzoom.min.js $@

$(CHARTJS): $(HTMX)
	test -d node_modules/chart.js || SCARF_ANALYTICS=false npm ci --no-audit --no-fund --loglevel=error
	cp node_modules/chart.js/dist/chart.umd.min.js $@

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po | $(VENV)/.runtime
	$(BIN)/pybabel compile -d translations -l $* --statistics

clean:
	rm -rf $(VENV) node_modules app/static/vendor $(COMPILED) .pytest_cache
