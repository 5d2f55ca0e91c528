# `make matrix` and `make test` each set up .venv on first use.
#
# torch: a user debugging their own CUDA stack must keep the torch they have,
# wherever it lives (PYTHON: a base interpreter, a venv, a conda env).
# scripts/make_venv.py makes .venv from PYTHON with a .pth to PYTHON's own site
# folders, so .venv sees that torch and pip installs no second one; only where
# there is no torch at all is $(TORCH_SPEC) installed, into .venv (here the CPU
# build served locally; an unpinned torch would pull several GB of CUDA packages).
# Another PYTHON remakes .venv.

PYTHON ?= python3
TORCH_SPEC ?= torch==2.13.0
VENV ?= .venv
PY := $(VENV)/bin/python
MATRIX ?= matrix/default.yaml
ARGS ?=
PYTEST_ARGS ?=
# The suite is mostly real child processes that wait on each other (timeouts, hangs, sleeping loaders): two
# workers left the 2-core box's cores a fifth idle (CPU-s against wall, 2026-11-29), three about 7%, four
# about 5%: on fresh clones of one commit pytest took 13 min 25 s with three workers, 12 min 55 s with four
# (1,551 and 1,522 CPU-s in all). Five, on fresh clones of one tree (22f7750, 2026-11-29): 13 min 58 s against
# 14 min 26 s for four, with 47 CPU-s less in all: the slow tests' long waits (Slurm, timeouts, sleeping readers)
# leave a worker's core to the others. A test file's runs stay together (--dist loadfile). TEST_WORKERS=0: serially.
TEST_WORKERS ?= 5
# test-quick's tests compute rather than wait, and each worker collects the whole suite first: on the quiet
# 2-core box two workers took 1 min 35 s and 107 CPU-s, four 1 min 39 s and 116 CPU-s (2026-11-29).
QUICK_WORKERS ?= 2

.PHONY: matrix test test-quick typecheck venv selftest bench docs clean-venv help

help:
	@echo "make matrix   run $(MATRIX) (ARGS='--jobs 2 repeats=3' to pass more)"
	@echo "make test     the type check, then the test suite"
	@echo "make test-quick  the edit loop: the tests not marked slow (under 2 minutes on 2 cores)"
	@echo "make selftest every way to die, classified"
	@echo "make bench    the benchmarks in bench/"
	@echo "make docs     the documentation site, into site/ (mkdocs build --strict)"

venv:
	@$(PYTHON) scripts/make_venv.py $(VENV) '$(TORCH_SPEC)'
	@$(MAKE) --no-print-directory $(VENV)/.installed

$(VENV)/.installed: pyproject.toml $(VENV)/.python
	$(PY) -m pip install -q -e '.[dev,forensics,docs]'
	@# The editable install gives Hydra our plugins (docs/hydra.md): the link an earlier version of this
	@# target made for them is no longer needed.
	@rm -rf $(VENV)/hydra-plugins $(VENV)/lib/python*/site-packages/_crashmatrix_hydra_plugins.pth
	@$(PY) -c "import torch, hydra, submitit, numpy, yaml, tabulate; print('make: venv ready, torch', torch.__version__)"
	@touch $@

matrix: venv
	$(PY) -m crashmatrix run $(MATRIX) $(ARGS)

selftest: venv
	$(PY) -m crashmatrix run matrix/selftest.yaml $(ARGS)

typecheck: venv
	@# mypy reads the package under the names it installs as (crashmatrix, crashmatrix.probes): it cannot
	@# follow setuptools' package-dir mapping, so a tree of links gives it that layout.
	@rm -rf .typecheck && mkdir -p .typecheck/crashmatrix
	@for f in runner/*; do ln -s ../../$$f .typecheck/crashmatrix/; done; ln -s ../../probes .typecheck/crashmatrix/probes
	cd .typecheck && $(abspath $(PY)) -m mypy --config-file ../pyproject.toml -p crashmatrix

test: typecheck
	@# one style, checked before the tests: ruff lints, and the layout is ruff format's
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	@# our own sources' bytecode, written once: where PYTHONDONTWRITEBYTECODE is set (as on the development
	@# machine) every one of the suite's thousands of processes compiled crashmatrix anew, 4% of its CPU
	@$(PY) -m compileall -q runner probes hydra_plugins tests examples scripts bench > /dev/null
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The edit loop: every test not marked `slow` (pyproject.toml's marker; the marks are in the test files), in the
# same workers. `make test` stays the whole suite, and what lands passes it. An existing .venv is only brought
# up to date (`make venv` asks its interpreter for torch each time: a torch import per loop).
test-quick: $(if $(wildcard $(VENV)/.python),$(VENV)/.installed,venv)
	@$(PY) -m compileall -q runner probes hydra_plugins tests examples scripts bench > /dev/null
	$(PY) -m pytest -q -n $(QUICK_WORKERS) --dist loadfile -m "not slow" $(PYTEST_ARGS)

bench: venv
	@# every script runs; one that misses a goal says so and exits 1, and make reports it at the end
	@status=0; for b in bench/bench_*.py; do echo "== $$b"; $(PY) $$b || status=1; done; exit $$status

docs: venv
	@# the verbs' reference from the parser itself (mkdocs.yml runs the same script as a hook)
	$(PY) scripts/gen_cli_reference.py
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

clean-venv:
	rm -rf $(VENV)
