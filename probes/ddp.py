"""torch.distributed: a few DDP training steps on this machine, one rank per GPU given (else 2 ranks).

World size: `world_size: auto` (the default) is the number of GPUs that
CUDA_VISIBLE_DEVICES lists when the cell runs on CUDA (`--gpus 0,1,2,3
--gpus-per-cell 2` gives each cell 2 ranks), else 2. A number is used as given.

The ranks are started with torch.multiprocessing.start_processes (spawn unless
start_method says otherwise), rendezvous on MASTER_ADDR=127.0.0.1 and a free
port, and use gloo on CPU, nccl on GPUs (gloo when there are fewer GPUs than
ranks: NCCL refuses two ranks on one device).

`kill_rank`/`kill_signal` make that rank kill itself for real at `kill_step`.
The main process then ends with torch's own report, exit status 1:

    torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV

(the classifier's rank_crash + signal name, rank 1: crashmatrix.verdict.ranks). torch terminates the other ranks
when one dies; the probe also kills and reaps any rank still alive on its way
out, so no rank outlives the cell.
"""

from __future__ import annotations

import json
import os
import time

from crashmatrix.probes import common, dbnet

DESCRIPTION = (
    "DDP training steps, a rank per GPU given (else 2; gloo on CPU, nccl on GPU); "
    "kill_rank makes a rank die by a signal"
)

PARAMS: dict = {
    **common.COMMON_DEFAULTS,
    "start_method": "spawn",
    "steps": 5,
    "batch_size": 4,
    "image_size": 32,
    "width": 8,
    "world_size": "auto",  # auto: one rank per GPU in CUDA_VISIBLE_DEVICES on cuda, else 2; or a number
    "backend": "auto",  # auto | gloo | nccl
    "kill_rank": -1,  # this rank kills itself at kill_step (-1: none)
    "kill_signal": "SIGSEGV",
    "kill_step": 2,
    "pg_timeout_s": 60,  # collective timeout (a peer that hangs rather than dies)
    "seed": 0,
    "nan_rank": -1,  # this rank's loss becomes NaN at kill_step (-1: none)
}


def refuses(key: str, value) -> str:
    """Why the probe would refuse this parameter's value ("" when it takes it): read before any cell runs."""
    text = str(value).strip()
    if key == "world_size" and text.lower() != "auto" and not (text.isdigit() and int(text) >= 1):
        return "world_size takes auto or a whole number of ranks, 1 or more"
    if key in ("kill_rank", "nan_rank") and not (text.isdigit() or text == "-1"):
        return f"{key} takes a rank (0, 1, ...) or -1 for none"
    if key == "kill_signal":
        try:
            _signal_number(text)
        except (AttributeError, ValueError):
            return "kill_signal takes a signal's name or number (SIGSEGV, SIGBUS, 11)"
    if key == "backend" and text not in ("auto", "gloo", "nccl"):
        return "backend takes auto, gloo or nccl"
    return ""


def world_size_for(param, device_type: str, visible_devices: str | None) -> int:
    """The number of ranks: a set `world_size` wins; `auto` follows the GPUs the cell was given."""
    if str(param).strip().lower() != "auto":
        return int(param)
    given = [d for d in (visible_devices or "").split(",") if d.strip()]
    return len(given) if device_type == "cuda" and given else 2


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _signal_number(name) -> int:
    import signal

    text = str(name).strip().upper()
    if text.lstrip("-").isdigit():
        return int(text)
    if not text.startswith("SIG"):
        text = "SIG" + text
    return int(getattr(signal, text))


def _rank_main(rank: int, world_size: int, port: int, p: dict, backend: str, out_dir: str) -> None:
    """One rank. Runs in a fresh process under spawn/forkserver: re-apply the knobs."""
    import datetime
    import faulthandler

    faulthandler.enable()  # a rank's own fatal signal prints its Python stack to stderr
    from crashmatrix.incell import knobs

    # A rank is a worker (its start method is its parent's) that keeps num_threads: it computes like a main process.
    knobs.apply(p, first=False, in_worker=True)

    import torch.distributed as dist

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    device = _rank_device(rank, p)
    dist.init_process_group(
        backend, rank=rank, world_size=world_size, timeout=datetime.timedelta(seconds=int(p["pg_timeout_s"]))
    )
    try:
        result = _train_rank(rank, world_size, p, device)
        tmp = os.path.join(out_dir, f"rank{rank}.json.tmp")
        with open(tmp, "w") as f:
            json.dump(result, f)
        os.replace(tmp, os.path.join(out_dir, f"rank{rank}.json"))
    finally:
        dist.destroy_process_group()


def _rank_device(rank: int, p: dict):
    import torch

    device = common.device_for(p)
    if device.type == "cuda":
        device = torch.device("cuda", rank % torch.cuda.device_count())
        torch.cuda.set_device(device)
    return device


def _train_rank(rank: int, world_size: int, p: dict, device) -> dict:
    """This rank's training steps (killing itself or turning NaN where asked); its metrics."""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    precision = common.Precision(p["precision"], device)
    torch.manual_seed(int(p["seed"]))  # same initial weights on every rank (DDP broadcasts anyway)
    model = dbnet.build_model(int(p["width"])).to(device)
    ddp = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01, momentum=0.9)
    steps, bs, size = int(p["steps"]), int(p["batch_size"]), int(p["image_size"])
    kill_rank, kill_step = int(p["kill_rank"]), int(p["kill_step"])
    metrics = common.Metrics()
    for step in range(steps):
        if rank == kill_rank and step == kill_step:
            os.kill(os.getpid(), _signal_number(p["kill_signal"]))
            time.sleep(5)  # a caught/ignored signal: stay visibly stuck rather than train on
        batch = dbnet.synthetic_batch(bs, size, int(p["seed"]), offset=(step * world_size + rank) * bs)
        batch = {k: v.to(device) for k, v in batch.items()}
        # gradients are all-reduced in the step's backward
        dbnet.train_step(
            ddp,
            optimizer,
            precision,
            batch,
            step,
            metrics,
            make_nan=rank == int(p["nan_rank"]) and step == kill_step,
            name=f"rank {rank} loss",
        )
    checksum = _agreed_checksum(model, world_size, steps)
    return metrics.result(rank=rank, weight_checksum=round(checksum, 4), device=str(device), precision=precision.label)


def _agreed_checksum(model, world_size: int, steps: int) -> float:
    """The sum of the weights, which the ranks must agree on after all-reduced steps."""
    import torch
    import torch.distributed as dist

    flat = torch.cat([t.detach().float().reshape(-1) for t in model.parameters()])
    checksum = flat.sum().reshape(1)
    gathered = [torch.zeros_like(checksum) for _ in range(world_size)]
    dist.all_gather(gathered, checksum)
    spread = float(max(gathered) - min(gathered))
    if spread > 1e-3 * max(1.0, abs(float(checksum))):
        raise AssertionError(f"DDP ranks disagree on the weights after {steps} steps (checksum spread {spread:.3g})")
    return float(checksum)


def _backend(p: dict, device, world_size: int) -> str:
    import torch

    backend = str(p["backend"] or "auto")
    if backend == "auto":
        backend = "nccl" if device.type == "cuda" and torch.cuda.device_count() >= world_size else "gloo"
    if backend == "nccl" and (device.type != "cuda" or torch.cuda.device_count() < world_size):
        raise common.Skip(f"backend=nccl needs {world_size} GPUs; this box has {torch.cuda.device_count()}")
    return backend


def main(params: dict) -> dict:
    p = common.with_defaults(params, PARAMS)
    device = common.device_for(p)
    if device.type == "cpu":
        # Skip early (bf16 unsupported, ...) before starting ranks. On CUDA the ranks check it: asking
        # here would initialise CUDA in this process, which forked ranks cannot re-initialise.
        common.Precision(p["precision"], device)
    world_size = world_size_for(p["world_size"], device.type, os.environ.get("CUDA_VISIBLE_DEVICES"))
    backend = _backend(p, device, world_size)
    start_method = str(p["start_method"] or "spawn")
    _signal_number(p["kill_signal"])  # a bad signal name is bad input, found before any rank starts

    t0 = time.perf_counter()
    ranks = _run_ranks(p, world_size, backend, start_method)
    elapsed = time.perf_counter() - t0
    r0 = ranks[0]
    return {
        "steps": r0["steps"],
        "steps_per_s": r0["steps_per_s"],  # rank 0's training loop alone
        "startup_s": round(elapsed - r0["duration_s"], 3),  # process start, rendezvous, DDP setup
        "final_loss": r0["final_loss"],
        "final_losses": [r["final_loss"] for r in ranks],
        "duration_s": round(elapsed, 3),
        "world_size": world_size,
        "backend": backend,
        "start_method": start_method,
        "device": r0["device"],
        "precision": r0["precision"],
        "weight_checksum": r0["weight_checksum"],
        **common.memory_peaks(),
        # the ranks hold the GPU memory, not this process
        "peak_gpu_mb": max((r["peak_gpu_mb"] for r in ranks if r.get("peak_gpu_mb") is not None), default=None),
        "rank_peak_rss_mb": [r["peak_rss_mb"] for r in ranks],
    }


def _run_ranks(p: dict, world_size: int, backend: str, start_method: str) -> list[dict]:
    """Start the ranks, wait for all of them, and return each one's metrics (rank order)."""
    import tempfile

    import torch.multiprocessing as mp

    with tempfile.TemporaryDirectory(prefix="ddp-", dir=os.getcwd()) as out_dir:
        context = mp.start_processes(
            _rank_main,
            args=(world_size, _free_port(), p, backend, out_dir),
            nprocs=world_size,
            join=False,
            start_method=start_method,
        )
        try:
            # join() raises ProcessRaisedException / ProcessExitedException
            # ("process 1 terminated with signal SIGSEGV") when a rank fails.
            while not context.join():
                pass
        except mp.ProcessRaisedException as e:
            _reraise_probe_verdict(e)
            raise
        finally:
            _reap(context)
        ranks = []
        for rank in range(world_size):
            with open(os.path.join(out_dir, f"rank{rank}.json")) as f:
                ranks.append(json.load(f))
    return ranks


def _reraise_probe_verdict(error) -> None:
    """A rank's Skip or NonFinite arrives as ProcessRaisedException; make it this cell's verdict."""
    import re

    m = re.search(r"^(?:crashmatrix\.)?probes\.(Skip|NonFinite): (.*)$", str(error), re.M)
    if m:
        cls = common.Skip if m.group(1) == "Skip" else common.NonFinite
        raise cls(m.group(2)) from None


def _reap(context) -> None:
    """Kill and wait for any rank still alive (torch already SIGTERMs them on a failure)."""
    import signal

    for proc in context.processes:
        if proc.is_alive():
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    for proc in context.processes:
        proc.join(timeout=10)
