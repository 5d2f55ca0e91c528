"""repro/<signature>/: one failure kind, ready to file upstream.

- matrix.yaml: the run's matrix narrowed to one cell, the configuration that failed this way most
  reliably, with enough repeats to see a flaky failure at least once at the confidence asked; its
  command's paths absolute and its `cwd` the folder the failing run ran in, so `crashmatrix run
  repro/<signature>/matrix.yaml` runs from anywhere;
- ISSUE.md (crashmatrix.resolve.issue);
- stacks.txt: the hung cell's stacks.txt, or the Python stacks faulthandler printed as it died;
- collect_env.txt: `python -m torch.utils.collect_env` run by the cell's own interpreter, under a time
  limit, in its own session so that a limit kills whatever it started.

Secrets: the values of this environment's secret variables (crashmatrix.redaction) are replaced wherever they
would be written; a matrix's secret env entries stay the placeholder the run directory already holds.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from crashmatrix.bisect.failure_rate import predictive_runs_needed
from crashmatrix.cell import spell
from crashmatrix.incell.atomic import write_text_atomic
from crashmatrix.machine import facts_cache
from crashmatrix.outcome import FailureKind, with_rank_note
from crashmatrix.plain_text import plain
from crashmatrix.redaction import REDACTED, is_secret
from crashmatrix.resolve.configs import Config
from crashmatrix.resolve.defaults import Defaults
from crashmatrix.resolve.failures import Failure
from crashmatrix.resolve.files import REPRO_DIR
from crashmatrix.rundir.cell_logs import read_ends
from crashmatrix.rundir.finished_run import FinishedRun

COLLECT_ENV_TIMEOUT_S = 120
COLLECT_ENV_QUESTION = "python -m torch.utils.collect_env"  # its facts_cache key's question
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_STACK_START = re.compile(r"^(Fatal Python error|Current thread 0x|Thread 0x)", re.M)


@dataclass(frozen=True)
class Bundle:
    kind: FailureKind
    name: str  # the folder under repro/
    config: Config  # the configuration it reproduces
    row: dict  # its failing run, as results.csv has it
    rate: float  # the cause's, over all the runs where it holds (cause_rate): what a repro run can expect
    repeats: int  # runs the matrix asks for: enough to see it once at the run's confidence (repeats_to_see)
    interpreter: str  # the failing cell's: collect_env.txt is its
    failing: int = 0  # the runs behind `rate`: those that failed so ...
    runs: int = 0  # ... and all that tell
    matrix_written: bool = False
    has_stacks: bool = False

    @property
    def dir(self) -> str:
        return f"{REPRO_DIR}/{self.name}"

    def label(self) -> str:
        """The kind's label, with the rank of its failing run where it was a distributed job's."""
        return with_rank_note(self.kind.label(), [self.row.get("rank")])


def folder_names(kinds: Sequence[FailureKind]) -> dict[FailureKind, str]:
    """Each kind's folder: its signature made safe for a path; two kinds whose names agree add outcome and signal,
    and where those agree too (two signatures alike in their first 48 characters: torch.load refusing two
    globals, a state_dict's missing and unexpected keys), a digest of the signature. Every kind its own folder."""
    base = {k: _slug(k.signature or k.outcome) for k in kinds}
    named = _set_apart(base, lambda k, name: f"{name}-{k.outcome}-{k.signal}".rstrip("-"))
    return _set_apart(named, lambda k, name: f"{name}-{hashlib.sha1(k.signature.encode()).hexdigest()[:8]}")


def _set_apart(names: dict[FailureKind, str], longer: Callable[[FailureKind, str], str]) -> dict[FailureKind, str]:
    """names, those two or more kinds share made longer."""
    shared = Counter(names.values())
    return {k: (longer(k, name) if shared[name] > 1 else name) for k, name in names.items()}


# an exception class's module before its name (`lightning_fabric.utilities.exceptions.MisconfigurationException`):
# in a folder name, cut at 48 characters, it left the module alone (the forty-sixth set's repro folders)
_EXCEPTION_MODULE = re.compile(r"^(?:[A-Za-z_]\w*\.)+(?=[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning)\b)")


def _slug(text: str, most: int = 48) -> str:
    """Text as one folder name, an exception by its class's own name: runs of other characters as one -, cut at
    a - within `most` characters."""
    slug = _UNSAFE.sub("-", _EXCEPTION_MODULE.sub("", text)).strip("-.")
    if len(slug) > most:
        cut = slug[:most]
        at = max(cut.rfind("-"), cut.rfind("."))
        slug = cut[:at] if at > most // 2 else cut
    return slug.strip("-.") or "failure"


def pick(kind: FailureKind, configs: Sequence[Config], defaults: Defaults) -> Config:
    """The configuration that failed this way most reliably; then most often; then nearest the defaults."""
    showing = [c for c in configs if kind in c.kinds]
    return min(showing, key=lambda c: (-c.kinds[kind] / c.runs, -c.kinds[kind], defaults.distance(c.spelled)))


def failing_row(run: FinishedRun, config: Config, kind: FailureKind) -> dict:
    for row in run.rows:
        if FailureKind.from_row(row) == kind and all(spell(row.get(a, "")) == v for a, v in config.spelled.items()):
            return dict(row)
    raise LookupError(kind)  # pick() chose a configuration with a run of this kind: never


def plan(
    run: FinishedRun, configs: Sequence[Config], defaults: Defaults, failures: Sequence[Failure], confidence: float
) -> list[Bundle]:
    kinds = sorted({k for c in configs for k in c.kinds})
    names = folder_names(kinds)
    out = []
    for kind in kinds:
        config = pick(kind, configs, defaults)
        failing, runs = cause_rate(kind, config, failures)
        row = failing_row(run, config, kind)
        rate = failing / runs
        repeats = repeats_to_see(failing, runs, confidence)
        out.append(Bundle(kind, names[kind], config, row, rate, repeats, _interpreter(run, row), failing, runs))
    return out


def repeats_to_see(failing: int, runs: int, confidence: float) -> int:
    """Runs of a repro that show a failure seen in `failing` of `runs` at least once with probability
    `confidence`: the point estimate's (1 - rate) ** r would trust 3 of 4 as 75% and ask 3 runs, which at a
    true 50% miss one time in eight; the rate's posterior under a uniform prior, Beta(1 + failing, 1 + runs -
    failing), asks 4. A failure that came every time is taken as deterministic: one run."""
    if failing >= runs:
        return 1
    return predictive_runs_needed(failing, runs, 1 - confidence)


def cause_rate(kind: FailureKind, config: Config, failures: Sequence[Failure]) -> tuple[int, int]:
    """(failing, runs) of the cause of `kind` that holds for `config`: over all the runs where its conditions
    hold, not the one configuration's, whose 1 of 1 says nothing of a failure that comes half the time;
    the configuration's own where that is lower (or no cause was named), so that a repro never asks too few."""
    own = (config.kinds[kind], config.runs)
    causes = [f for f in failures if f.kind == kind and f.runs and f.holds(config.spelled)]
    if not causes:
        return own
    cause = min(causes, key=lambda f: f.rate)
    return own if own[0] / own[1] < cause.rate else (cause.failing, cause.runs)


def _interpreter(run: FinishedRun, row: dict) -> str:
    """The interpreter that ran the failing cell: its argv's first word where that is a Python, else its `python`."""
    from crashmatrix.matrix.interpreters import of_cell

    argv = result_of(run, row).get("argv") or []
    if argv and os.path.basename(str(argv[0])).startswith("python") and os.path.isfile(str(argv[0])):
        return str(argv[0])
    return of_cell({a: row[a] for a in run.axes if a == "python" and spell(row.get(a, ""))})


def ran_in(run: FinishedRun, row: dict) -> str:
    """The folder the failing run was started in (result.json's cwd); "" where not recorded (an older run)."""
    cwd = str(result_of(run, row).get("cwd") or "")
    return cwd if os.path.isabs(cwd) else ""


def result_of(run: FinishedRun, row: dict) -> dict:
    """The run's result.json; {} where unreadable."""
    from crashmatrix.rundir.cell_logs import read_report

    return read_report(os.path.join(run.directory, str(row.get("log_dir", "")), "result.json")) or {}


def repro_matrix(run: FinishedRun, bundle: Bundle, command: list | None) -> dict | None:
    """The run's matrix narrowed to the bundle's one configuration; None without a matrix.yaml."""
    if not run.matrix:
        return None
    axes_spec = run.matrix.get("axes") or {}
    axes = {}
    for axis in run.axes:
        value = bundle.config.values.get(axis, "")
        if spell(value) == "":
            continue
        spec = axes_spec.get(axis)
        axes[axis] = {"values": [value], "keys": list(spec["keys"])} if isinstance(spec, dict) else [value]
    # The run's matrix in its own order, its axes narrowed in place; no include, exclude or pairwise.
    data = {k: v for k, v in run.matrix.items() if k not in ("include", "exclude", "order", "seed")}
    data["axes"] = axes
    data["name"] = re.sub(r"[^A-Za-z0-9_-]+", "-", f"repro-{bundle.name}")[:60].strip("-")
    if command:
        data["command"] = command
        # where the failing run's program ran: its relative paths (data files, `-m pkg.app`) are that folder's
        cwd = data.get("cwd") or ran_in(run, bundle.row)
        if cwd:
            data["cwd"] = cwd
    data["strategy"] = "full"
    data["repeats"] = bundle.repeats
    # run then says whether this failure came back, not merely whether the runs failed
    data["reproduces"] = {
        "outcome": bundle.kind.outcome,
        "signal": bundle.kind.signal,
        "signature": bundle.kind.signature,
    }
    return data


def absolute_command(run: FinishedRun) -> list | None:
    """The matrix's command with its program's path found and made absolute (crashmatrix.matrix.program); None if not found."""
    from crashmatrix.errors import BadInput
    from crashmatrix.matrix.program import resolve_program
    from crashmatrix.matrix.spec import load_matrix

    path = os.path.join(run.directory, "matrix.yaml")
    if not run.matrix.get("command") or not os.path.exists(path):
        return None
    try:
        matrix = resolve_program(load_matrix(path), path)
    except BadInput:
        return None
    return list(matrix.command or ())


def secret_values() -> list[str]:
    """This environment's secret values (crashmatrix.redaction's names), longest first."""
    found = {v for k, v in os.environ.items() if is_secret(k) and len(v) >= 4 and v != REDACTED}
    return sorted(found, key=len, reverse=True)


def redact(text: str, secrets: Sequence[str]) -> str:
    """text with each of `secrets` replaced."""
    for value in secrets:
        text = text.replace(value, REDACTED)
    return text


# A program's own output may print a secret resolve never saw (a value from the matrix file's env, which
# the run directory keeps redacted): `WANDB_API_KEY=...`, `'api_key': '...'` lose their value.
_ASSIGNED = re.compile(
    r"\b(\w*(?:key|token|secret|password|passwd|credential)\w*)(['\"]?\s*[:=]\s*['\"]?)([^\s'\",;)}\]]{4,})",
    re.IGNORECASE,
)


def scrub(text: str) -> str:
    """A program's output with the values of secret-named assignments replaced (not an exception's name)."""

    def keep_or_hide(m: re.Match) -> str:
        if m.group(1).lower().endswith(("error", "exception", "warning")) or m.group(3) == REDACTED:
            return m.group(0)
        return m.group(1) + m.group(2) + REDACTED

    return _ASSIGNED.sub(keep_or_hide, text)


def stacks_of(run: FinishedRun, row: dict) -> str:
    """The failing run's stacks: its stacks.txt (a hang), else the Python stacks faulthandler printed."""
    cell_dir = os.path.join(run.directory, str(row.get("log_dir", "")))
    saved = os.path.join(cell_dir, "stacks.txt")
    if os.path.exists(saved):
        return plain(read_ends(saved))
    stderr = plain(read_ends(os.path.join(cell_dir, "stderr.log")))
    start = _STACK_START.search(stderr)
    return stderr[start.start() :] if start else ""


def collect_env(python: str, timeout: float = COLLECT_ENV_TIMEOUT_S) -> str:
    """`python -m torch.utils.collect_env` run by `python`: its output, or a line saying why there is none.

    An answer is kept (crashmatrix.machine.facts_cache: keyed by the interpreter, every folder on its sys.path with its
    mtime, the host, kernel, driver and devices), so the same unchanged interpreter is not asked twice."""
    head = f"# python -m torch.utils.collect_env, run by {python} (the failing cell's interpreter)\n\n"
    cache_key = _cache_key(python)
    kept = facts_cache.load(cache_key) if cache_key else None
    if kept and isinstance(kept.get("collect_env"), str):
        return head + kept["collect_env"]
    done, out = _run_collect_env(python, timeout)
    if done and cache_key:
        facts_cache.store(cache_key, {"collect_env": out})
    return head + out


def _cache_key(python: str) -> str | None:
    try:
        probe = subprocess.run(
            [python, "-c", facts_cache.PROBE], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return facts_cache.key(python, probe.stdout, COLLECT_ENV_QUESTION) if probe.returncode == 0 else None


def _run_collect_env(python: str, timeout: float) -> tuple[bool, str]:
    """(whether it ran to its end, what to write)."""
    try:
        child = subprocess.Popen(
            [python, "-m", "torch.utils.collect_env"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=tempfile.gettempdir(),  # nowhere a folder of the user's could shadow torch
            start_new_session=True,
        )
    except OSError as e:
        return False, f"could not start it: {e}\n"
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)  # its own session: it and whatever it started (pip, nvidia-smi)
        child.communicate()
        return False, f"it did not finish within {timeout:.0f} s and was stopped\n"
    if child.returncode != 0:
        tail = "\n".join(err.strip().splitlines()[-5:])
        return False, f"it ended with exit status {child.returncode}:\n{tail}\n"
    return True, out


def write_bundle(directory: str, files: dict[str, str]) -> None:
    """The bundle's files, each written whole (atomically), secrets out; a file not given is left as it is.

    Every file but matrix.yaml quotes the program's output, and is scrubbed as well; matrix.yaml is the
    run's own matrix (its env secrets already redacted), whose params must reach the program as written."""
    os.makedirs(directory, exist_ok=True)
    secrets = secret_values()
    for name, text in files.items():
        text = redact(text, secrets)
        write_text_atomic(os.path.join(directory, name), text if name == "matrix.yaml" else scrub(text), durable=False)
