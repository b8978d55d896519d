#!/usr/bin/env bash
# Runs the companion from this checkout (emulated rings and LEDs, panel on localhost),
# creating its own virtual environment on first use. Extra arguments go to `mandala serve`.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# Install (editable) once per version of pyproject.toml; code changes need no reinstall.
stamp=".venv/.installed-run-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -e "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
    touch "$stamp"
fi
exec .venv/bin/mandala serve --emulate "$@"
