"""Helpers shared by the probes: device, precision, DataLoader, wandb, checks, metrics.

Everything here imports torch lazily (inside functions), like the probes: the
controller imports `probes` to list PARAMS and must not pay for torch.

Decisions worth knowing:
- device=cuda on a box without CUDA is a skip, not a failure: the cell does not
  apply here (`Skip("device=cuda but torch.cuda.is_available() is False")`).
- precision=16-mixed on CPU runs CPU autocast with float16 (torch >= 2.2 has
  it) plus a CPU GradScaler, so the cell exercises the fp16 autocast path
  instead of silently passing; if this torch lacks CPU float16 autocast the cell
  is a skip "16-mixed needs CUDA (CPU autocast is bf16 only)".
- bf16-mixed on a GPU without bf16 support is a skip; on CPU it runs.
- pin_memory=true is always passed to DataLoader as asked. On a box without an
  accelerator torch >= 2.x warns "'pin_memory' argument is set as true but no
  accelerator is found, then device pinned memory won't be used." and starts no
  pin-memory thread, so the knob is a no-op there; the metrics say so
  (`pin_memory_effective`).
- persistent_workers and prefetch_factor are only passed when num_workers > 0
  (DataLoader rejects them otherwise, which would turn every such cell of a
  matrix into a trivial failure).
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import time
from typing import Any

from crashmatrix.incell import knobs, loader_clock
from crashmatrix.incell.memory_sampler import SAMPLER
from crashmatrix.probes import NonFinite, Skip

# The contract's common parameters with the defaults every probe starts from.
COMMON_DEFAULTS: dict = {
    "start_method": "",  # "" = leave the platform default (fork on Linux < 3.14)
    "sharing_strategy": "",  # "" = torch's default (file_descriptor on Linux)
    "num_workers": 0,
    "pin_memory": False,
    "persistent_workers": False,
    "prefetch_factor": "",  # "" = torch's default (2) when num_workers > 0
    "batch_size": 8,
    "steps": 20,
    "device": "auto",
    "precision": "32",
    "wandb": "disabled",
    "cudnn.benchmark": "",
    "cudnn.deterministic": "",
    "cudnn.enabled": "",
    "num_threads": "",
    "rlimit.nofile": "",
    "rlimit.as_mb": "",
    "shm_mb": "",
}


def with_defaults(params: dict, defaults: dict) -> dict:
    """The probe's defaults overlaid with what the cell gave (None/"" keep the default)."""
    merged = dict(defaults)
    for key, value in (params or {}).items():
        if value is None:
            continue
        merged[key] = value
    return merged


# --------------------------------------------------------------------------- device


def device_for(params: dict):
    """torch.device for the cell; Skip when CUDA is asked for and absent."""
    import torch

    name = str(params.get("device", "auto") or "auto")
    if name == "auto":  # cuda when present, else cpu
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise Skip("device=cuda but torch.cuda.is_available() is False")
    if name == "mps" and not (hasattr(torch.backends, "mps") and torch.backends.mps.is_available()):
        raise Skip("device=mps but torch.backends.mps.is_available() is False")
    return torch.device(name)


# ------------------------------------------------------------------------ precision


def native_bf16(torch) -> bool:
    """bf16 in hardware (Ampere and later). torch >= 2.3 also answers True for GPUs that only emulate
    it (V100, T4), which run such cells slowly instead of skipping them."""
    try:
        return torch.cuda.is_bf16_supported(including_emulation=False)
    except TypeError:  # an older torch knows no emulation
        return torch.cuda.is_bf16_supported()


class Precision:
    """Autocast context and GradScaler for one of "32", "16-mixed", "bf16-mixed"."""

    def __init__(self, precision: str, device):
        import torch

        self.name = str(precision).strip()
        self.device_type = device.type
        self.dtype = None
        self.scaler = None
        if self.name in ("32", "32-true", "fp32"):
            self.name = "32"
            return
        if self.name == "16-mixed":
            if self.device_type == "cuda":
                self.dtype = torch.float16
                self.scaler = torch.amp.GradScaler("cuda")
            elif self.device_type == "cpu":
                if not _cpu_autocast_supports(torch.float16):
                    raise Skip("16-mixed needs CUDA (CPU autocast is bf16 only)")
                self.dtype = torch.float16
                self.scaler = torch.amp.GradScaler("cpu")
            else:
                raise Skip(f"16-mixed is not supported on device {self.device_type}")
            return
        if self.name == "bf16-mixed":
            if self.device_type == "cuda" and not native_bf16(torch):
                raise Skip(f"bf16-mixed: {torch.cuda.get_device_name()} does not support bfloat16")
            if self.device_type == "cpu" and not _cpu_autocast_supports(torch.bfloat16):
                raise Skip("bf16-mixed: this torch has no CPU bfloat16 autocast")
            self.dtype = torch.bfloat16
            return
        raise ValueError(f"precision must be one of 32, 16-mixed, bf16-mixed; got {precision!r}")

    def autocast(self):
        import torch

        if self.dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device_type, dtype=self.dtype)

    def backward_step(self, loss, optimizer) -> None:
        """loss.backward() and optimizer.step(), through the GradScaler when there is one."""
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
            self.scaler.step(optimizer)
            self.scaler.update()
        else:
            loss.backward()
            optimizer.step()

    @property
    def label(self) -> str:
        if self.dtype is None:
            return "fp32"
        return f"{self.device_type}-autocast-{str(self.dtype).replace('torch.', '')}"


@functools.cache
def _cpu_autocast_supports(dtype) -> bool:
    import torch

    try:
        with torch.autocast("cpu", dtype=dtype):
            out = torch.nn.functional.linear(torch.ones(2, 2), torch.ones(2, 2))
        return out.dtype == dtype
    except Exception:  # older torch: "CPU Autocast only supports dtype of torch.bfloat16"
        return False


# ----------------------------------------------------------------------- DataLoader


def loader_kwargs(params: dict) -> dict:
    """DataLoader keyword arguments from the contract's parameters."""
    num_workers = int(params.get("num_workers", 0) or 0)
    kwargs: dict[str, Any] = {
        "batch_size": int(params.get("batch_size", 8)),
        "num_workers": num_workers,
        "pin_memory": knobs.as_bool(params.get("pin_memory", False)),
    }
    if num_workers > 0:
        kwargs["persistent_workers"] = knobs.as_bool(params.get("persistent_workers", False))
        if knobs.is_set(params, "prefetch_factor"):
            kwargs["prefetch_factor"] = int(params["prefetch_factor"])
        if knobs.is_set(params, "start_method"):
            kwargs["multiprocessing_context"] = str(params["start_method"])
        kwargs["worker_init_fn"] = knobs.worker_init_fn(params)
    return kwargs


def pin_memory_effective(params: dict) -> bool:
    """Whether DataLoader really pins (it needs an accelerator; see the module doc)."""
    import torch

    if not knobs.as_bool(params.get("pin_memory", False)):
        return False
    acc = getattr(torch, "accelerator", None)
    return bool(acc.is_available()) if acc is not None else torch.cuda.is_available()


# ---------------------------------------------------------------------------- wandb


class WandbRun:
    """wandb.init in mode disabled/offline/online with its files under the cell's cwd.

    The child runs with cwd = the cell's log dir, so `dir` defaults to the cwd
    (wandb then writes ./wandb/offline-run-*/). WANDB_DIR, if set, wins.
    Use as a context manager: finish() always runs, so wandb-core (started in
    its own session) is told to exit before the probe returns.
    """

    def __init__(self, params: dict, *, project: str = "crashmatrix", config: dict | None = None):
        self.mode = str(params.get("wandb", "disabled") or "disabled").strip().lower()
        if self.mode in ("false", "off", "none", "0"):
            self.mode = "disabled"
        if self.mode not in ("disabled", "offline", "online"):
            raise ValueError(f"wandb must be disabled, offline or online; got {params.get('wandb')!r}")
        self.project = project
        self.config = config or {}
        self.run: Any = None  # a wandb Run once entered
        self.dir: str | None = None
        self.run_dir: str | None = None  # the run's files folder, kept after finish()

    def __enter__(self) -> WandbRun:
        if self.mode == "disabled":
            return self
        import wandb

        self.dir = run_folder = os.environ.get("WANDB_DIR") or os.getcwd()
        os.makedirs(run_folder, exist_ok=True)
        self.run = wandb.init(
            project=os.environ.get("WANDB_PROJECT", self.project),
            mode=self.mode,  # type: ignore[arg-type]  # wandb.init checks the word itself
            dir=self.dir,
            config=self.config,
            reinit="finish_previous",
        )
        self.run_dir = os.path.dirname(str(self.run.dir))  # .../wandb/offline-run-*/files -> the run folder
        return self

    @property
    def active(self) -> bool:
        return self.run is not None

    def log(self, data: dict, step: int | None = None) -> None:
        if self.run is not None:
            self.run.log(data, step=step)

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.run is not None:
            run, self.run = self.run, None
            run.finish(exit_code=0 if exc_type is None else 1)


# --------------------------------------------------------------------------- checks


def check_finite(name: str, tensor, *, where: str = "") -> None:
    """NonFinite naming the tensor when it holds NaN or Inf."""
    import torch

    if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
        nans = int(torch.isnan(tensor).sum())
        infs = int(torch.isinf(tensor).sum())
        what = ", ".join(p for p in (f"{nans} NaN" if nans else "", f"{infs} Inf" if infs else "") if p)
        prefix = f"{where}: " if where else ""
        raise NonFinite(f"{prefix}{name} has {what} values")


def check_batch(index: int, tensors: dict, ranges: dict | None = None) -> None:
    """Validate one batch: every float tensor finite, and inside its (lo, hi) range if given.

    Raises NonFinite("batch 3: images has 12 NaN values").
    """
    ranges = ranges or {}
    for name, tensor in tensors.items():
        check_finite(name, tensor, where=f"batch {index}")
        if name in ranges:
            lo, hi = ranges[name]
            tmin, tmax = float(tensor.min()), float(tensor.max())
            if tmin < lo or tmax > hi:
                raise NonFinite(f"batch {index}: {name} out of range [{lo}, {hi}]: min {tmin:.4g} max {tmax:.4g}")


def check_loss(loss, step: int, name: str = "loss") -> float:
    """The loss as a float; NonFinite("loss is nan at step 7") when it is not finite."""
    value = float(loss.detach().float())
    if value != value or value in (float("inf"), float("-inf")):
        raise NonFinite(f"{name} is {value} at step {step}")
    return value


# -------------------------------------------------------------------------- metrics


class Metrics:
    """Counts steps and time; `result()` adds memory peaks and growth.

    A probe that draws its batches through `batches(loader)` gets the rate a wall clock sees
    (crashmatrix.incell.loader_clock: from each pass's `iter(loader)` to its last batch) and
    first_batch_s and first_batch_total_s; one without a loader gets its steps over the time since Metrics() was made.
    """

    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.steps = 0
        self.final_loss: float | None = None
        self.clock = loader_clock.LoaderClock()

    def batches(self, loader):
        """The loader's batches without end, each pass timed on this probe's clock."""
        return loader_clock.timed_cycle(loader, self.clock)

    def step(self, loss: float | None = None) -> None:
        self.steps += 1
        if loss is not None:
            self.final_loss = loss

    def result(self, **extra) -> dict:
        elapsed = time.perf_counter() - self.t0
        timed = loader_clock.speed([self.clock])
        out = {
            "steps": self.steps,
            "steps_per_s": timed["steps_per_s"] if self.clock.batches else loader_clock.rate(self.steps, elapsed),
            "first_batch_s": timed["first_batch_s"],
            "first_batch_total_s": timed["first_batch_total_s"],
            "final_loss": None if self.final_loss is None else round(float(self.final_loss), 6),
            "duration_s": round(elapsed, 3),
        }
        out.update(memory_peaks())
        out.update(SAMPLER.figures())  # how memory grew over the batches drawn through batches()
        out.update(extra)
        return out


def memory_peaks() -> dict:
    """Peak RSS of this process and of its waited-for children (MiB), and peak GPU memory."""
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = {
        "peak_rss_mb": round(self_kb / 1024, 1),
        "peak_rss_children_mb": round(child_kb / 1024, 1),
        "peak_gpu_mb": None,
    }
    import sys

    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        out["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    return out
