#!/usr/bin/env bash
# The checks a lent GPU machine runs (docs/gpu.md): rerun them whenever a GPU is lent.
#
#   bash scripts/gpu_check.sh OUT [SECONDS]
#
# From the repository root, on the GPU machine, with the packages it lacks as wheels in .whl/ (hydra-core,
# omegaconf, antlr4-python3-runtime, submitit, py-spy; docs/gpu.md says how to fetch them). Everything ends
# within SECONDS (default 560). Into OUT: log.txt (each step's time and status), alone.tgz (the zoo's GPU modes
# run alone, without crashmatrix: their truth), zoo-gpu.tgz (tests/zoo/test_zoo_gpu.py's run of them), heldout14.tgz
# (the fourteenth held-out set's modes alone and under crashmatrix),
# faults.tgz (matrix/gpu.yaml), growth.tgz and growth-explain.txt (a growing GPU cell's census), pytest-gpu.log,
# pytest-zoo-gpu.log, and zoo-cpu.log (the CPU zoo on this machine's torch, run beside the GPU steps: it uses
# no GPU).
set -uo pipefail
out=${1:?usage: gpu_check.sh OUT [SECONDS]}
deadline=$((SECONDS + ${2:-560}))
work=/tmp/gpu-check
rm -rf "$work" && mkdir -p "$work/alone" "$out"
export PYTHONUNBUFFERED=1
exec 3>&1  # the log's own way out: a step's output goes to its file
log() { echo "[$(date +%T) +${SECONDS}s] $*" | tee -a "$out/log.txt" >&3; }
left() { echo $((deadline - SECONDS > 5 ? deadline - SECONDS - 5 : 1)); }
step() {  # step NAME CAP COMMAND...: at most CAP seconds, and never past the deadline; GPU_CHECK_SKIP names
    local name=$1 cap=$2 t=$SECONDS rc  # steps left out (a dry run on a CPU box: "install zoo-cpu")
    shift 2
    [[ " ${GPU_CHECK_SKIP:-} " == *" $name "* ]] && { log "skip $name"; return; }
    local limit; limit=$(left); ((cap < limit)) && limit=$cap
    log "start $name (limit ${limit}s)"
    timeout -k 5 "$limit" "$@"
    rc=$?
    log "end $name rc=$rc in $((SECONDS - t))s"
}

log "machine: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1)"
step install 120 bash -c 'python3 -m pip install -q --no-index --no-deps --no-compile .whl/*.whl &&
    python3 -m pip install -q --no-index --no-deps --no-build-isolation -e .'
python3 -c 'import torch, transformers, triton, crashmatrix; print("torch", torch.__version__, "cuda", torch.version.cuda, "transformers", transformers.__version__, "triton", triton.__version__)' 2>&1 | tee -a "$out/log.txt"

step zoo-cpu 400 python3 -m pytest -q -p no:cacheprovider -n 6 --dist loadfile tests/zoo/test_zoo.py tests/zoo/test_zoo_units.py \
    >"$out/zoo-cpu.log" 2>&1 &
zoo_cpu=$!

export work
alone() {  # the truth: each GPU mode alone, and again with CUDA_LAUNCH_BLOCKING=1 (where it raises)
    local mode
    for mode in gpu_device_mismatch gpu_hf_oov gpu_kernel_stride gpu_leak_oom gpu_seg_void_label gpu_shared_gpu; do
        (cd tests/zoo/app && python3 main.py mode=$mode >"$work/alone/$mode.out" 2>"$work/alone/$mode.err"
         echo "exit $?" >>"$work/alone/$mode.err")
        (cd tests/zoo/app && CUDA_LAUNCH_BLOCKING=1 python3 main.py mode=$mode >/dev/null 2>"$work/alone/$mode.blocking.err"
         echo "exit $?" >>"$work/alone/$mode.blocking.err")
        [[ $mode == gpu_seg_void_label || $mode == gpu_shared_gpu ]] || continue
        (cd tests/zoo/app && CUDNN_LOGLEVEL_DBG=3 CUDNN_LOGDEST_DBG="$work/alone/$mode.cudnn.log" python3 main.py mode=$mode \
            >/dev/null 2>"$work/alone/$mode.logged.err"; echo "exit $?" >>"$work/alone/$mode.logged.err")
    done
}
export -f alone
step alone 200 bash -c alone
tar -czf "$out/alone.tgz" -C "$work" alone

step zoo-gpu 330 python3 -m pytest -q -p no:cacheprovider -n 0 tests/zoo/test_zoo_gpu.py -k on_a_gpu \
    --basetemp="$work/zoo-gpu" >"$out/pytest-zoo-gpu.log" 2>&1
tar -czf "$out/zoo-gpu.tgz" -C "$work/zoo-gpu" .

# the fourteenth held-out set (tests/zoo/HELDOUT14.md): its GPU modes alone and under crashmatrix, resolved, to
# score live with tests/zoo/score_reported.py against truth_heldout14.yaml
step heldout14 340 bash tests/zoo/heldout14_device.sh "$work/heldout14"
tar -czf "$out/heldout14.tgz" -C "$work" heldout14

step faults 120 python3 -m crashmatrix run matrix/gpu.yaml --jobs 5 --out "$work/h200-faults"
tar -czf "$out/faults.tgz" -C "$work" h200-faults

# issue 50's GPU census: a loop that sums its loss tensors on the GPU grows; the traced rerun reads PyTorch's
# memory snapshot (runner/incell/memory_trace.py) and explain names what the allocator kept and where
printf 'name: gpu-growth\ncommand: [python3, %s/tests/apps/sums_losses.py]\ninject: true\nenv: {MALLOC_MMAP_THRESHOLD_: "131072"}\nparams: {steps: 70, device: cuda}\naxes: {keep_graph: [false, true]}\ntimeout: 120\n' "$PWD" >"$work/growth.yaml"
step growth 90 bash -c "python3 -m crashmatrix run '$work/growth.yaml' --jobs 2 --out '$work/h200-growth' &&
    python3 -m crashmatrix explain '$work/h200-growth' > '$out/growth-explain.txt'"
tar -czf "$out/growth.tgz" -C "$work" h200-growth

step gpu-tests 150 python3 -m pytest -q -p no:cacheprovider -n 4 --dist loadfile tests/test_gpu_faults.py tests/test_gpu_recorded.py \
    tests/test_gpu_fingerprint.py tests/test_gpu_h200_signatures.py tests/test_gpu_sets.py tests/test_sync_rerun.py \
    >"$out/pytest-gpu.log" 2>&1

wait "$zoo_cpu"
log "done"
