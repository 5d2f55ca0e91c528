"""The environment fingerprint of a machine: what differs between the WSL2 box and the native one.

The controller never imports torch, so torch's facts (version, CUDA runtime,
cuDNN, GPUs) come from a short child process of the same interpreter the cells
use. Environment variables whose names look secret are never included.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import socket
import subprocess
import sys

from runner.secrets import is_secret

# Environment variables that change how training behaves; secrets are filtered out anyway.
_ENV_PREFIXES = ("CUDA_", "NCCL_", "PYTORCH_", "TORCH_", "OMP_", "MKL_", "WANDB_MODE", "CUBLAS_", "CUDNN_", "LD_LIBRARY_PATH", "SLURM_JOB_PARTITION")

_TORCH_PROBE = r"""
import json, sys
out = {}
try:
    import torch
    out["torch"] = torch.__version__
    out["cuda_runtime"] = torch.version.cuda or ""
    out["cudnn"] = str(torch.backends.cudnn.version() or "") if torch.backends.cudnn.is_available() else ""
    out["cuda_available"] = torch.cuda.is_available()
    gpus = []
    if torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            gpus.append({"name": p.name, "capability": f"{p.major}.{p.minor}", "memory_gb": round(p.total_memory / 2**30, 1)})
    out["gpus"] = gpus
    out["bf16_supported"] = bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())
    out["default_start_method"] = __import__("multiprocessing").get_start_method()
    out["torch_threads"] = torch.get_num_threads()
except Exception as e:  # a broken torch is itself a finding
    out["torch_error"] = f"{type(e).__name__}: {e}"
print(json.dumps(out))
"""


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _os_release() -> str:
    for line in _read("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip().strip('"')
    return platform.platform()


def _meminfo_gb(field: str) -> float | None:
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith(field + ":"):
            return round(int(line.split()[1]) / 2**20, 1)
    return None


def _cpu_model() -> str:
    for line in _read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def _driver() -> str:
    text = _read("/proc/driver/nvidia/version")
    if text:
        for word in text.split():
            if word.count(".") >= 1 and word.replace(".", "").isdigit():
                return word
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20,
        )
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else ""
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return ""


def torch_facts(python: str = sys.executable, timeout: float = 120) -> dict:
    try:
        out = subprocess.run([python, "-c", _TORCH_PROBE], capture_output=True, text=True, timeout=timeout)
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as e:
        return {"torch_error": f"could not ask {python}: {e}"}


def collect(*, with_torch: bool = True) -> dict:
    osrelease = _read("/proc/sys/kernel/osrelease").strip() or platform.release()
    try:
        st = os.statvfs("/dev/shm")
        shm_mb = round(st.f_blocks * st.f_frsize / 2**20)
    except OSError:
        shm_mb = None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    facts = {
        "host": socket.gethostname(),
        "os": _os_release(),
        "kernel": osrelease,
        "wsl2": "microsoft" in osrelease.lower() and "wsl2" in osrelease.lower()
        or "microsoft-standard" in osrelease.lower(),
        "wsl": "microsoft" in osrelease.lower(),
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "cpu_count": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "ram_gb": _meminfo_gb("MemTotal"),
        "shm_mb": shm_mb,
        "rlimit_nofile": f"{soft}/{hard}" if hard != resource.RLIM_INFINITY else f"{soft}/unlimited",
        "driver": _driver(),
        "in_container": os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv"),
    }
    if with_torch:
        facts.update(torch_facts())
        facts["gpu"] = ", ".join(g["name"] for g in facts.get("gpus", [])) or "none"
    facts["env"] = {
        k: v for k, v in sorted(os.environ.items()) if k.startswith(_ENV_PREFIXES) and not is_secret(k)
    }
    return facts


# Fields worth a line in a summary, and for compare, in this order.
SUMMARY_FIELDS = ("host", "os", "kernel", "wsl2", "python", "torch", "cuda_runtime", "cudnn", "driver", "gpu",
                  "cpu_count", "ram_gb", "shm_mb", "rlimit_nofile")


def one_line(facts: dict) -> str:
    parts = []
    for key in ("host", "kernel", "torch", "cuda_runtime", "cudnn", "driver", "gpu"):
        value = facts.get(key)
        if value not in (None, ""):
            parts.append(f"{key}={value}")
    parts.append("WSL2" if facts.get("wsl2") else "not WSL2")
    return ", ".join(parts)
