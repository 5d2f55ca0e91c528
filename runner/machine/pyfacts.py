"""What one interpreter holds: Python, glibc, installed packages, torch's view of the machine.

Asked from a child of that interpreter (the controller never imports torch, and
a cell's interpreter may not be the controller's). The child lists packages
with importlib.metadata, which is cheap, and imports torch only where torch is
installed. `Asking` returns at once and `Asking.result` collects the answer, so
a run asks while its cells already run. An interpreter unchanged since it last
answered is not asked again (facts_cache), so a short run ends with its cells.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time

from crashmatrix.machine import facts_cache

# Plain Python 3.8 syntax: it runs under whatever interpreter a cell uses.
_CHILD = r"""
import json, os, platform, re, sys
# `-c` puts the current directory first on sys.path: the user's working tree (an egg-info, a
# torch/ folder) is not what the interpreter has installed.
sys.path = [p for p in sys.path if p not in ("", ".")]
out = {"python": platform.python_version(), "executable": sys.executable}
try:
    out["glibc"] = os.confstr("CS_GNU_LIBC_VERSION").split()[-1]
except (AttributeError, ValueError, OSError, IndexError):
    out["glibc"] = platform.libc_ver()[1]
try:
    from importlib import metadata
    packages = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:  # the first one on sys.path is the one an import finds
            packages.setdefault(re.sub(r"[-_.]+", "-", name).lower(), dist.version)
    out["packages"] = dict(sorted(packages.items()))
except Exception as e:
    out["packages_error"] = "%s: %s" % (type(e).__name__, e)
import importlib.util
if importlib.util.find_spec("torch") is not None:
    try:
        import torch
        out["torch"] = torch.__version__
        out["cuda_runtime"] = torch.version.cuda or ""
        out["cudnn"] = str(torch.backends.cudnn.version() or "") if torch.backends.cudnn.is_available() else ""
        out["cuda_available"] = torch.cuda.is_available()
        out["cuda_arch_list"] = " ".join(torch.cuda.get_arch_list()) if torch.cuda.is_available() else ""
        gpus = []
        if torch.cuda.is_available():
            for i in range(torch.cuda.device_count()):
                p = torch.cuda.get_device_properties(i)
                gpus.append({"name": p.name, "capability": "%d.%d" % (p.major, p.minor),
                             "memory_gb": round(p.total_memory / 2**30, 1)})
        out["gpus"] = gpus
        out["bf16_supported"] = bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())
        out["default_start_method"] = __import__("multiprocessing").get_start_method()
        out["torch_threads"] = torch.get_num_threads()
    except Exception as e:  # a broken torch is itself a finding
        out["torch_error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(out))
# The answer is out: the interpreter's teardown would trace torch's whole heap in its final collections
# (0.35 of the 1.6 CPU-s this child takes), and this child leaves nothing to finalize.
sys.stdout.flush()
os._exit(0)
"""

# Shown for each interpreter in a report's header, besides every nvidia-* library.
KEY_PACKAGES = ("torch", "numpy", "wandb", "lightning", "pytorch-lightning", "hydra-core")


class Asking:
    """One interpreter's answer, asked in a thread of its own: the kept answer where the
    interpreter is unchanged since (facts_cache), else a child importing torch."""

    def __init__(self, python: str, timeout: float):
        self.python = python
        self.deadline = time.monotonic() + timeout
        self._lock = threading.Lock()
        self._popen: subprocess.Popen | None = None
        self._stopped = False
        self._answer: dict = {}
        self._thread = threading.Thread(target=self._ask, name=f"pyfacts {python}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._popen is not None and self._popen.poll() is None:
                self._popen.kill()

    def result(self) -> dict:
        self._thread.join()  # bounded: each child is waited for only until the deadline
        return self._answer

    def _ask(self) -> None:
        try:
            probe = self._output(facts_cache.PROBE)
            cache_key = facts_cache.key(self.python, probe[0], _CHILD) if probe and probe[2] == 0 else None
            cached = facts_cache.load(cache_key) if cache_key else None
            if cached is not None:
                self._answer = cached
                return
            self._answer = self._full_answer()
            if cache_key and facts_cache.keepable(self._answer):
                facts_cache.store(cache_key, self._answer)
        except OSError as e:
            self._answer = {"fingerprint_error": f"could not ask {self.python}: {e.strerror or e}"}

    def _output(self, code: str) -> tuple[str, str, int] | None:
        """The child's (stdout, stderr, exit status); None: stopped, or out of time."""
        with self._lock:
            if self._stopped:
                return None
            popen = self._popen = subprocess.Popen(
                [self.python, "-c", code],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        try:
            out, err = popen.communicate(timeout=max(0.0, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.communicate()
            return None
        return out, err, popen.returncode

    def _full_answer(self) -> dict:
        found = self._output(_CHILD)
        if self._stopped:
            return {"fingerprint_error": "not asked to the end: the run was interrupted"}
        if found is None:
            return {"fingerprint_error": f"{self.python} did not answer in time"}
        out, err, status = found
        try:
            return json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return {
                "fingerprint_error": f"{self.python}: {(err.strip().splitlines() or [f'exit status {status}'])[-1]}"
            }


def kept_answer(python: str, timeout: float = 10) -> dict | None:
    """The answer kept for python (facts_cache) while it is unchanged, or None: a quick child prints its
    sys.path; torch is never imported to get it."""
    try:
        done = subprocess.run(
            [python, "-c", facts_cache.PROBE], capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    kept = facts_cache.load(facts_cache.key(python, done.stdout, _CHILD))
    return kept if kept is not None and facts_cache.keepable(kept) else None


def key_packages(packages: dict) -> dict:
    """torch, numpy, wandb, lightning, hydra-core and the nvidia-* libraries that are installed."""
    names = [n for n in KEY_PACKAGES if n in packages] + sorted(n for n in packages if n.startswith("nvidia-"))
    return {n: packages[n] for n in names}


def package_differences(package_sets: list[dict | None]) -> list[tuple[str, list]]:
    """(package, [version per set, None where absent]) for each package not the same in every set."""
    present = [p for p in package_sets if p is not None]
    names = sorted({n for p in present for n in p})
    out = []
    for name in names:
        versions = [None if p is None else p.get(name) for p in package_sets]
        if len({v for v, p in zip(versions, package_sets) if p is not None}) > 1:
            out.append((name, versions))
    return out
