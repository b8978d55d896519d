#!/usr/bin/env bash
# Runs the whole test suite, creating its own virtual environment on first use.
# Extra arguments go to pytest (e.g. ./test.sh tests/games -k snipe).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# Install (editable, with the development tools) once per version of pyproject.toml.
stamp=".venv/.installed-dev-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -e "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
    touch "$stamp"
fi
exec .venv/bin/python -m pytest "$@"
