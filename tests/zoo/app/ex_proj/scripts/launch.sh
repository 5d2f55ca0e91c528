#!/usr/bin/env bash
# Launch a training run: bash scripts/launch.sh case=NAME [key=value ...]
# Sets the run's environment (threads, unbuffered output, the run folder, the project's tools on PATH), changes to
# the project's folder and replaces itself with the trainer (exec), which parses the key=value arguments itself.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
export PYTHONUNBUFFERED=1
export EXKIT_RUN_DIR="${EXKIT_RUN_DIR:-/tmp/exkit-runs/$$}"
export PATH="$ROOT/scripts/bin:$PATH"

exec python -m exkit.train "$@"
