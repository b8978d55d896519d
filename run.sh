#!/usr/bin/env bash
# Runs the companion from this checkout, creating its own virtual environment on first use.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/mandala serve --emulate "$@"
