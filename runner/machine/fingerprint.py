"""The environment fingerprint of a machine: what differs between the WSL2 box and the native one.

The controller never imports torch, so each interpreter the cells use is asked
by a child of its own (crashmatrix.machine.pyfacts) for its packages, glibc and torch's
facts (version, CUDA runtime, cuDNN, GPUs). Those answers take seconds (torch's
import), so a run starts them with `start` and collects them with
`Pending.finish` once its cells are done: they never delay the first cell.
Environment variables whose names look secret are never included.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys

from crashmatrix.machine import gpu_arch, pyfacts
from crashmatrix.outcome import GROUPING_VERSION
from crashmatrix.redaction import is_secret

# Environment variables that change how training behaves; secrets are filtered out anyway.
_ENV_PREFIXES = (
    "CUDA_",
    "NCCL_",
    "PYTORCH_",
    "TORCH_",
    "OMP_",
    "MKL_",
    "WANDB_MODE",
    "CUBLAS_",
    "CUDNN_",
    "LD_LIBRARY_PATH",
    "SLURM_JOB_PARTITION",
)


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
    import platform  # only where /etc/os-release is missing: its import costs the start of a run

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
    return ""


def _driver_from_proc() -> str:
    for word in _read("/proc/driver/nvidia/version").split():
        if word.count(".") >= 1 and word.replace(".", "").isdigit():
            return word
    return ""


def _glibc() -> str:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").split()[-1]
    except (AttributeError, ValueError, OSError, IndexError):
        return ""  # not glibc (musl, macOS)


def machine() -> dict:
    """What the controller can see at once, without starting a process."""
    osrelease = _read("/proc/sys/kernel/osrelease").strip() or os.uname().release
    try:
        shm = os.statvfs("/dev/shm")
        shm_mb = round(shm.f_blocks * shm.f_frsize / 2**20)
    except OSError:
        shm_mb = None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return {
        "host": socket.gethostname(),
        "os": _os_release(),
        "kernel": osrelease,
        "wsl2": "microsoft" in osrelease.lower()
        and "wsl2" in osrelease.lower()
        or "microsoft-standard" in osrelease.lower(),
        "wsl": "microsoft" in osrelease.lower(),
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
        "glibc": _glibc(),
        "cpu_count": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "ram_gb": _meminfo_gb("MemTotal"),
        "shm_mb": shm_mb,
        "rlimit_nofile": f"{soft}/{hard}" if hard != resource.RLIM_INFINITY else f"{soft}/unlimited",
        "signals_ignored": signals_ignored(),
        "driver": _driver_from_proc(),
        # WSL2's GPU path: CUDA there goes through /dev/dxg and the Windows driver, with its own limits.
        "dxg": os.path.exists("/dev/dxg"),
        "in_container": os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv"),
        "env": {k: v for k, v in sorted(os.environ.items()) if k.startswith(_ENV_PREFIXES) and not is_secret(k)},
        # how this run's failures are grouped into signatures: compare joins two versions' runs by class and place
        "grouping_version": GROUPING_VERSION,
    }


# Python ignores SIGPIPE and SIGXFSZ for itself and puts them back for every process it starts (subprocess's
# restore_signals). Any other signal ignored here was ignored as crashmatrix started (`nohup` ignores SIGHUP; a job
# that a shell without job control puts in the background, `cmd &` in a script, ignores SIGINT and SIGQUIT), and
# every cell inherits it, as the program started the same way would: a program that stops itself early with
# SIGINT runs on (the fifty-seventh held-out set's sg_sigint_early_stop, its first runs made so). Said, not undone.
_RESTORED = {"SIGPIPE", "SIGXFZ", "SIGXFSZ"}


def signals_ignored() -> str:
    """`SIGINT, SIGQUIT`: the signals this process ignores that its cells inherit ignored; "" for none."""
    names = []
    for number in sorted(signal.valid_signals()):
        try:
            name = signal.Signals(number).name
            ignored = signal.getsignal(number) is signal.SIG_IGN
        except (ValueError, OSError):  # a real-time signal has no name; SIGKILL and SIGSTOP no disposition
            continue
        if ignored and name not in _RESTORED:
            names.append(name)
    return ", ".join(names)


# The first interpreter's facts are also written at the top of env.json, where the summary line and
# compare read them (as before interpreters became an axis).
LIFTED = (
    "python",
    "torch",
    "cuda_runtime",
    "cudnn",
    "cuda_available",
    "cuda_arch_list",
    "gpus",
    "bf16_supported",
    "default_start_method",
    "torch_threads",
    "torch_error",
)


class Pending:
    """A fingerprint whose slow parts (the interpreters, nvidia-smi) are still being asked."""

    def __init__(self, interpreters: dict, timeout: float = 120):
        self.facts = machine()
        self.asking = {key: pyfacts.Asking(path, timeout) for key, path in interpreters.items()}
        self.smi = None
        if not self.facts["driver"] and interpreters:
            try:  # no /proc/driver/nvidia (WSL2, containers): nvidia-smi knows, slowly
                self.smi = subprocess.Popen(
                    ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
            except OSError:
                pass

    def stop(self) -> None:
        """An interrupted run does not wait for torch's import."""
        for asking in self.asking.values():
            asking.stop()
        if self.smi is not None and self.smi.poll() is None:
            self.smi.kill()

    def finish(self) -> dict:
        facts = dict(self.facts)
        if self.smi is not None:
            try:
                out, _ = self.smi.communicate(timeout=20)
                facts["driver"] = (out.strip().splitlines() or [""])[0] if self.smi.returncode == 0 else ""
            except subprocess.TimeoutExpired:
                self.smi.kill()
                self.smi.communicate()
        found = {key: asking.result() for key, asking in self.asking.items()}
        if found:
            main = next(iter(found))
            facts.update({k: v for k, v in found[main].items() if k in LIFTED})
            facts["gpu"] = ", ".join(g["name"] for g in facts.get("gpus", [])) or "none"
            facts["gpu_capability"] = ", ".join(g["capability"] for g in facts.get("gpus", []))
            facts["arch_missing"] = gpu_arch.missing(facts.get("gpus", []), facts.get("cuda_arch_list", ""))
            facts["interpreter"] = main
            facts["interpreters"] = found
        return facts


def start(interpreters: dict | None = None, timeout: float = 120) -> Pending:
    """interpreters: name (as env.json keys it) -> executable; the controller's own by default."""
    return Pending({sys.executable: sys.executable} if interpreters is None else interpreters, timeout)


def collect(*, interpreters: dict | None = None) -> dict:
    """The whole fingerprint of this machine, waited for (`crashmatrix env`).

    interpreters: name (as env.json keys it) -> executable; the controller's own interpreter by default.
    Returns the dict env.json holds: the machine's facts (host, kernel, wsl2, glibc, cpu_count, ram_gb,
    shm_mb, rlimit_nofile, driver, env: the training-relevant variables, never a secret one), then with
    torch the first interpreter's facts lifted to the top (python, torch, cuda_runtime, cudnn, gpu, ...)
    and every interpreter's under `interpreters`. Never raises for a missing tool or a broken interpreter:
    what could not be learnt is empty or says why (`torch_error`, `fingerprint_error`).
    """
    return start(interpreters).finish()


# Fields worth a line in a summary, and for compare, in this order.
SUMMARY_FIELDS = (
    "host",
    "os",
    "kernel",
    "wsl2",
    "glibc",
    "python",
    "torch",
    "cuda_runtime",
    "cudnn",
    "driver",
    "gpu",
    "gpu_capability",
    "cuda_arch_list",
    "arch_missing",
    "dxg",
    "cpu_count",
    "ram_gb",
    "shm_mb",
    "rlimit_nofile",
)


def listing(facts: dict) -> list[str]:
    """`crashmatrix env` without --json: one `key: value` line per fact (env.* one per variable)."""
    lines = []
    for key, value in facts.items():
        if key == "env":
            lines += [f"env.{name}: {setting}" for name, setting in value.items()]
        elif key == "interpreters":
            lines += [
                f"packages of {path}: {len(found.get('packages') or {})} (--json lists them)"
                for path, found in value.items()
            ]
        elif key != "gpus":
            lines.append(f"{key}: {value}")
    return lines


def one_line(facts: dict) -> str:
    parts = []
    for key in ("host", "kernel", "torch", "cuda_runtime", "cudnn", "driver", "gpu"):
        value = facts.get(key)
        if value not in (None, ""):
            parts.append(f"{key}={value}")
    parts.append("WSL2" if facts.get("wsl2") else "not WSL2")
    if facts.get("arch_missing"):
        # The first suspect for "illegal instruction" / "no kernel image": say it where every run prints.
        parts.append(f"WARNING {facts['arch_missing']}")
    return ", ".join(parts)
