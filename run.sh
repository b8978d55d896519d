#!/usr/bin/env bash
# Runs the companion from this checkout (emulated rings and LEDs, panel on localhost),
# creating its own virtual environment on first use. Extra arguments go to `mandala serve`.
set -euo pipefail
cd "$(dirname "$0")"
. tools/venv.sh
check_needs run
make_venv
install_once run .
exec .venv/bin/mandala serve --emulate "$@"
