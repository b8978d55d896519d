#!/usr/bin/env bash
# Runs the whole test suite, creating its own virtual environment on first use.
# Extra arguments go to pytest (e.g. ./test.sh tests/games -k snipe); the tests run on every
# core (pytest-xdist), or in one process with -n 0.
set -euo pipefail
cd "$(dirname "$0")"
. tools/venv.sh
check_needs test
make_venv
install_once dev '.[dev]'
exec .venv/bin/python -m pytest -n auto "$@"
