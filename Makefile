# The two commands a fresh machine needs: `make run` and `make test`.
# Only python3, node/npm and make are assumed; everything else comes from lock files.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PY ?= python3
UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
PYTHON := $(VENV)/bin/python
export UV_PROJECT_ENVIRONMENT := $(CURDIR)/$(VENV)
export UV_PYTHON := $(shell command -v $(PY))

.PHONY: help run test spa-lint spa-typecheck spa-unit lint typecheck contracts contracts-check deploy-check pytest sandbox spa spa-test bench lighthouse fuzz clean

help:
	@echo "make run    - install from lock files and serve the product at http://127.0.0.1:8000"
	@echo "make test   - install dev tools, then lint, type checks and pytest"
	@echo "make contracts - regenerate the SPA's types from contracts/"
	@echo "make bench  - benchmarks (not part of make test); results in bench/results/"
	@echo "make lighthouse - Lighthouse on every page (mobile), guarded ones logged in; results in bench/results/lighthouse.json"
	@echo "make fuzz   - the OpenAPI fuzzing of tests/security with 300 examples per operation"

$(UV):
	$(PY) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# Runtime dependencies only; --inexact keeps dev tools that `make test` installed.
$(VENV)/.run-deps: $(UV) uv.lock pyproject.toml
	$(UV) sync --frozen --no-dev --inexact
	@touch $@

$(VENV)/.dev-deps: $(UV) uv.lock pyproject.toml
	$(UV) sync --frozen
	@touch $@ $(VENV)/.run-deps

spa/node_modules/.installed: spa/package-lock.json
	cd spa && npm ci --no-audit --no-fund
	@touch $@

SPA_SOURCES := $(shell find spa/src spa/public -type f -not -path 'spa/src/console/*' 2>/dev/null) \
  spa/index.html spa/vite.config.ts spa/vite.shared.ts spa/tsconfig.json
# The operators' console: its own entry and build (served by the admin listener only), and the
# few player-site modules it imports.
CONSOLE_SOURCES := $(shell find spa/src/console -type f 2>/dev/null) spa/console.html spa/vite.console.config.ts \
  spa/vite.shared.ts spa/tsconfig.json spa/src/api/xsrf.ts spa/src/api/locales.gen.ts spa/src/components/Dialog.tsx \
  spa/src/components/TextField.tsx spa/src/utils/errorBody.ts

# The build prints the initial JS of /home (gzip) and fails over its 170 kB budget.
# `npm run build` type-checks first; `make test` does that once for both builds (spa-typecheck).
spa/dist/index.html: spa/node_modules/.installed $(SPA_SOURCES)
	cd spa && npx vite build && npm run --silent size

spa/dist-console/index.html: spa/node_modules/.installed $(CONSOLE_SOURCES)
	cd spa && npx vite build --config vite.console.config.ts

spa: spa/dist/index.html spa/dist-console/index.html

# The product on the embedded defaults: the two built-in skins, sandbox upstream, in-memory store.
run: $(VENV)/.run-deps spa/dist/index.html spa/dist-console/index.html
	GATEWAY_ENV=development $(PYTHON) -m gateway --with-sandbox --host 127.0.0.1 --port 8000

sandbox: $(VENV)/.run-deps
	$(PYTHON) -m sandbox --host 127.0.0.1 --port 8001

# ESLint (type-aware, react-hooks, the layer rule of spa/eslint.config.js) with zero warnings.
spa-test: spa-lint spa-typecheck spa-unit

spa-lint: spa/node_modules/.installed
	cd spa && npm run --silent lint

spa-typecheck: spa/node_modules/.installed
	cd spa && npm run --silent typecheck

spa-unit: spa/node_modules/.installed
	cd spa && npm test

lint: $(VENV)/.dev-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.dev-deps
	$(VENV)/bin/mypy

# The player site's types from contracts/, the console's from the gateway's own (gateway/console/schema).
contracts: $(VENV)/.dev-deps spa/node_modules/.installed
	$(PYTHON) -m contracts export
	$(PYTHON) -m gateway.console.schema

contracts-check: $(VENV)/.dev-deps spa/node_modules/.installed
	$(PYTHON) -m contracts export --check
	$(PYTHON) -m gateway.console.schema --check

# The Prometheus alert rules of deploy/ and their own tests, where Debian's `prometheus` package
# provides promtool (.ci/run installs it).
deploy-check:
	@if command -v promtool >/dev/null; then \
	  promtool check rules deploy/prometheus/alerts.yaml && promtool test rules deploy/prometheus/alerts.test.yaml; \
	else echo "promtool not installed (Debian: prometheus): deploy/prometheus not checked"; fi

# pytest runs last: CI reads its closing line.
# Exit 5 ("no tests collected") is reported, never mistaken for a failure of the code.
# PYTEST_WORKERS pytest-xdist workers, each given whole files (a module's cluster starts once), in
# the order collected (xdist would put the largest files first: the browser tests, after which no
# async test can run in that worker); PYTEST_WORKERS=0 runs in this process. docs/development.md
# says why this many.
PYTEST_WORKERS ?= 3
pytest: $(VENV)/.dev-deps
	@$(PYTHON) -m pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests"; exit 0; fi; exit $$rc

# The checks before pytest are independent: two at a time (one per core), each one's output
# printed whole when it ends. pytest prints how long the whole of `make test` took (MAKE_TEST_STARTED).
STATIC_CHECKS := lint typecheck contracts-check spa-lint spa-typecheck spa-unit spa/dist/index.html \
  spa/dist-console/index.html deploy-check
export MAKE_TEST_STARTED ?= $(shell date +%s)
test:
	$(MAKE) --no-print-directory -j2 --output-sync=target $(STATIC_CHECKS)
	$(MAKE) --no-print-directory pytest

# Benchmarks are never part of `make test`: their figures go to bench/results/ and bench/RESULTS.md.
# bench/throughput.py installs nginx and wrk from Debian when missing.
bench: $(VENV)/.dev-deps spa/dist/index.html
	$(PYTHON) bench/scale.py
	$(PYTHON) bench/throughput.py
	$(PYTHON) bench/bytes.py
	$(PYTHON) bench/compression.py
	$(PYTHON) bench/events.py

# The security suite's Schemathesis walk, longer than in `make test` (8 examples per operation).
fuzz: $(VENV)/.dev-deps
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-300} $(PYTHON) -m pytest tests/security/test_fuzz.py

# Lighthouse (mobile profile) on every route of the SPA, from its own lock file in bench/lighthouse/.
bench/lighthouse/node_modules/.installed: bench/lighthouse/package-lock.json
	cd bench/lighthouse && npm ci --no-audit --no-fund
	@touch $@

lighthouse: $(VENV)/.dev-deps spa/dist/index.html bench/lighthouse/node_modules/.installed
	$(PYTHON) bench/lighthouse.py

clean:
	rm -rf $(VENV) $(TOOLS) spa/node_modules spa/dist spa/dist-console .mypy_cache .ruff_cache .pytest_cache
