#!/usr/bin/env bash
# Launch a training run from anywhere: bash scripts/train.sh experiment=NAME [key=value ...]
# Exports the run's settings, sources the experiment's cluster settings (configs/experiments/NAME.env) when it has
# any, changes to the project's folder and runs the package as a module with the arguments as given.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
export PYTHONUNBUFFERED=1
export E_RUNS_DIR="${E_RUNS_DIR:-runs}"

EXPERIMENT=baseline
for arg in "$@"; do
    case "$arg" in
        experiment=*) EXPERIMENT="${arg#experiment=}" ;;
    esac
done
if [ -f "configs/experiments/$EXPERIMENT.env" ]; then
    source "configs/experiments/$EXPERIMENT.env"
fi

if [ "${NNODES:-1}" -gt 1 ]; then
    export MASTER_ADDR="$MASTER_ADDR"
    export MASTER_PORT="${MASTER_PORT:-29500}"
    echo "multi-node: $NNODES nodes, rendezvous at $MASTER_ADDR:$MASTER_PORT"
fi

mkdir -p "$E_RUNS_DIR"
if [ "${MONITOR:-0}" = 1 ]; then
    python -m e_pkg.monitor "$E_RUNS_DIR/monitor-$$.csv" &
fi

python -m e_pkg.run "$@"
status=$?
wait
exit $status
