# Rightsize: `make run` and `make test` do all set-up on a fresh machine.
VENV := .venv
BIN := $(VENV)/bin
PYTHON := $(BIN)/python
PG_URL ?= postgres://postgres@127.0.0.1:5432/test
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup run test lint format test-sqlite test-postgres browser-deps browser-js bench bench-deps examples clean \
	calibrate calibrate-grid package-check

$(VENV)/.installed: pyproject.toml
	@test -x $(PYTHON) || "$$(scripts/find-python)" -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

setup: $(VENV)/.installed
	@mkdir -p var/media var/tmp
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py load_catalog
	$(PYTHON) manage.py seed_demo

run: setup
	@echo "Rightsize on http://$(HOST):$(PORT)/  (demo logins in README.md)"
	$(PYTHON) manage.py db_worker --interval 1 & \
	  worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	  $(PYTHON) manage.py runserver $(HOST):$(PORT)

# Debian packages: Chromium for the browser tests, poppler for PDF pages, HarfBuzz's subsetter
# for WeasyPrint's fonts, WenQuanYi Micro Hei for CJK text (a Tokyo reseller's name).
browser-deps:
	@command -v chromium >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 && \
	  ldconfig -p | grep -q libharfbuzz-subset && test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf && \
	  test -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc || \
	  { (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils libharfbuzz-subset0 fonts-dejavu-core fonts-wqy-microhei; }

# axe-core for the accessibility checks, from the npm registry, pinned by package-lock.json.
browser-js: tests/browser/node_modules/axe-core/axe.min.js

tests/browser/node_modules/axe-core/axe.min.js: tests/browser/package.json tests/browser/package-lock.json
	@command -v npm >/dev/null 2>&1 || { (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; }
	cd tests/browser && npm ci --no-audit --no-fund --silent
	@touch $@

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

format: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test-sqlite: setup browser-deps browser-js
	env -u DATABASE_URL $(BIN)/pytest -q

test-postgres: setup browser-deps
	@if [ -n "$$DATABASE_URL" ] || $(PYTHON) scripts/pg_answers.py "$(PG_URL)"; then \
	  DATABASE_URL=$${DATABASE_URL:-$(PG_URL)} $(BIN)/pytest -q -m "not browser"; \
	else echo "PostgreSQL not reachable: skipping the PostgreSQL run"; fi

# Both suites at once, one per core (scripts/test-suites): CI's wall clock is the longer one.
test: lint setup browser-deps browser-js
	@scripts/test-suites $(PYTHON) "$(PG_URL)"
	@echo "SQLite and PostgreSQL suites done."

examples: setup
	$(PYTHON) ../shared/tools/check_examples.py . ../shared/examples

# `pip install .` into a fresh venv (dependencies from the index), then gunicorn serves /login/.
package-check: $(VENV)/.installed
	$(PYTHON) scripts/package_check.py

# The bench's peers and load tools on a fresh machine: wrk (Debian) for the review page, and
# aiconfigurator in its own venv for the peer ratio. An install that fails leaves that piece a
# SKIP with its reason; the bench never fails the build.
bench-deps:
	@command -v wrk >/dev/null 2>&1 || { (apt-get update -qq || true) && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; } || echo "bench: wrk not installed"
	@$(MAKE) --no-print-directory $(AIC_VENV)/.installed || echo "bench: aiconfigurator not installed"

bench: setup bench-deps
	$(PYTHON) bench/run.py

# The speed model's calibration (fixtures/calibration.json) from the committed aiconfigurator grid
# (fixtures/reference/aic_grid.jsonl.gz) and the published measurements; prints the error table.
calibrate: $(VENV)/.installed
	$(PYTHON) scripts/calibrate.py

# Re-query aiconfigurator 0.12's measured-kernel mode for the grid: a separate venv, so
# aiconfigurator never becomes a runtime (or even a dev) dependency of Rightsize. Hours of CPU.
AIC_VENV := .venv-aic
$(AIC_VENV)/.installed:
	@test -x $(AIC_VENV)/bin/python || "$$(scripts/find-python)" -m venv $(AIC_VENV)
	$(AIC_VENV)/bin/pip install --quiet --disable-pip-version-check aiconfigurator==0.12.0 aiconfigurator-core==0.12.0
	@touch $@

calibrate-grid: $(AIC_VENV)/.installed
	$(AIC_VENV)/bin/python scripts/aic_query_grid.py --out var/tmp/aic_grid.jsonl
	$(PYTHON) -c "import gzip, json, sys; rows = [l for l in open('var/tmp/aic_grid.jsonl') if not json.loads(l).get('error')]; gzip.open('fixtures/reference/aic_grid.jsonl.gz', 'wt').writelines(rows)"
	$(PYTHON) scripts/calibrate.py

clean:
	rm -rf $(VENV) $(AIC_VENV) var db.sqlite3
