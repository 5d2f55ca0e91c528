#!/usr/bin/env bash
# The fourteenth held-out set (y_*, GPU failure modes) on a machine with one CUDA GPU: each mode alone (the
# truth, tests/zoo/truth_heldout14.yaml), then under crashmatrix, resolved. HELDOUT14.md gives the method.
#
#     bash tests/zoo/heldout14_device.sh OUT      (from the repository root; python3 is the torch one)
#
# OUT/alone/MODE[.clb]/{stdout.txt,stderr.txt,status.txt}: each mode alone, and again with
# CUDA_LAUNCH_BLOCKING=1 (.clb) for the single-process modes; OUT/matrices/*.yaml and OUT/runs/NAME: the
# crashmatrix runs (3 repeats, inject true; the hang also without inject), each resolved. Every step is guarded
# by a timeout and none stops the script; the whole ends within about 330 s.
# DRY=1: two single modes, the hang and one torchrun mode, 1 repeat (a check of this script on a CPU box,
# where every mode fails for lack of CUDA).
# SKIP_ALONE=1: leave out (a), the runs alone (their truth is recorded): a live rerun in less device time.

OUT=${1:?usage: bash tests/zoo/heldout14_device.sh OUT}
mkdir -p "$OUT/alone" "$OUT/runs" "$OUT/matrices"
OUT=$(cd "$OUT" && pwd)
ROOT=$PWD
APP=$ROOT/tests/zoo/app
START=$(date +%s)
export OUT APP

SINGLE=(y_fork_cuda_dataset y_pin_cuda_samples y_ce_label_shift y_sample_temperature_zero y_cuda1_single_gpu
    y_default_device_shuffle y_cupy_float4_offset y_pl_bce_autocast y_pl_devices_two y_half_model_float_input
    y_ctypes_freed_host_buffer)
HANGS=(y_hang_spin_flag)
TORCHRUN=(y_ddp_same_gpu y_ddp_rank1_oom_peer_waits)
REPEATS=3
if [ -n "$DRY" ]; then
    SINGLE=("${SINGLE[@]:0:2}")
    TORCHRUN=("${TORCHRUN[@]:0:1}")
    REPEATS=1
fi

log() { echo "[$(($(date +%s) - START)) s] $*" | tee -a "$OUT/script.log"; }

# ---------------------------------------------------------------- the machine
{
    date -u
    timeout 20 nvidia-smi
    timeout 60 python3 -c "import sys, torch; print(sys.version); print(torch.__version__, torch.version.cuda,
torch.cuda.is_available(), torch.cuda.device_count())"
    timeout 30 python3 -c "import cupy; print('cupy', cupy.__version__)"
    timeout 30 python3 -c "import pytorch_lightning as pl; print('pytorch_lightning', pl.__version__)"
} >"$OUT/machine.txt" 2>&1
if ! timeout 30 python3 -c "import crashmatrix" >/dev/null 2>&1; then
    log "crashmatrix not importable: installing this checkout (no deps, no index)"
    timeout 60 python3 -m pip install -q --no-deps --no-index --no-build-isolation "$ROOT" >>"$OUT/script.log" 2>&1
fi
log "machine noted"

# ---------------------------------------------------------------- (a) each mode alone, 4 at a time
run_alone() { # KIND:MODE[:clb]
    IFS=: read -r kind mode clb <<<"$1"
    local dir="$OUT/alone/$mode${clb:+.clb}" limit=60 cmd
    mkdir -p "$dir"
    [ "$kind" = hang ] && limit=20
    if [ "$kind" = torchrun ]; then
        cmd=(python3 -m torch.distributed.run --standalone --nproc_per_node=2 ddp_main.py "mode=$mode")
    else
        cmd=(python3 main.py "mode=$mode")
    fi
    local t0 t1 rc
    t0=$(date +%s%N)
    if [ -n "$clb" ]; then
        (cd "$APP" && CUDA_LAUNCH_BLOCKING=1 timeout -k 5 "$limit" "${cmd[@]}") >"$dir/stdout.txt" 2>"$dir/stderr.txt"
    else
        (cd "$APP" && timeout -k 5 "$limit" "${cmd[@]}") >"$dir/stdout.txt" 2>"$dir/stderr.txt"
    fi
    rc=$?
    t1=$(date +%s%N)
    printf 'exit %s (124: killed at the %s s limit; 128+N: signal N)\nwall_ms %s\ncommand (from tests/zoo/app): %s%s\n' \
        "$rc" "$limit" "$(((t1 - t0) / 1000000))" "${clb:+CUDA_LAUNCH_BLOCKING=1 }" "${cmd[*]}" >"$dir/status.txt"
}
export -f run_alone
{
    for m in "${HANGS[@]}"; do echo "hang:$m"; done
    for m in "${TORCHRUN[@]}"; do echo "torchrun:$m"; done
    for m in "${SINGLE[@]}"; do echo "single:$m"; done
    for m in "${SINGLE[@]}"; do echo "single:$m:clb"; done
} >"$OUT/alone/jobs.txt"
if [ -z "$SKIP_ALONE" ]; then
    timeout -k 5 100 xargs -P 4 -I{} bash -c 'run_alone "$1"' _ {} <"$OUT/alone/jobs.txt"
    log "alone runs done (xargs exit $?)"
fi

# ---------------------------------------------------------------- (b) the crashmatrix runs
yaml_list() { printf '%s\n' "$@" | sed 's/^/  - /'; }
write_matrix() { # NAME INJECT TIMEOUT COMMAND_YAML MODES...
    local name=$1 inject=$2 limit=$3 command=$4
    shift 4
    cat >"$OUT/matrices/$name.yaml" <<EOF
name: heldout14-$name
command: $command
inject: $inject
axes:
  mode:
$(yaml_list "$@")
repeats: $REPEATS
timeout: $limit
EOF
}
write_matrix single true 45 "[python3, $APP/main.py]" "${SINGLE[@]}"
write_matrix hangs-inject true 20 "[python3, $APP/main.py]" "${HANGS[@]}"
write_matrix hangs-plain false 20 "[python3, $APP/main.py]" "${HANGS[@]}"
write_matrix torchrun true 90 \
    "[python3, -m, torch.distributed.run, --standalone, --nproc_per_node=2, $APP/ddp_main.py]" "${TORCHRUN[@]}"

run_matrix() { # NAME LIMIT_S
    (cd "$OUT/matrices" && timeout -k 10 "$2" python3 -m crashmatrix run "$1.yaml" --jobs 4 --out "$OUT/runs/$1") \
        >"$OUT/runs/$1.run.log" 2>&1
    echo "crashmatrix run exit $?" >>"$OUT/runs/$1.run.log"
}
resolve_run() { # NAME
    [ -d "$OUT/runs/$1" ] || return
    (cd "$OUT/matrices" && timeout -k 5 40 python3 -m crashmatrix resolve "$OUT/runs/$1") \
        >"$OUT/runs/$1.resolve.log" 2>&1
    echo "crashmatrix resolve exit $?" >>"$OUT/runs/$1.resolve.log"
}
run_matrix single 160 &
(run_matrix hangs-inject 80 && run_matrix hangs-plain 80) &
run_matrix torchrun 120 &
wait
log "crashmatrix runs done"
for name in single hangs-inject hangs-plain torchrun; do resolve_run "$name" & done
wait
log "resolved; total $(($(date +%s) - START)) s"
