"""A Hydra multirun's jobs, each in its own fresh process under crashmatrix's engine, written into the
sweep directory as a crashmatrix run directory: results.csv (one column per override, knobs by name),
summary.md, report.html, env.json and matrix.yaml beside Hydra's multirun.yaml and its job directories.

A sweeper launches a multirun in one batch or several; one SweepRun keeps the run directory across them.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

from crashmatrix.cell import Cell, CellRun
from crashmatrix.errors import BadInput
from crashmatrix.hydra.columns import SweepColumns
from crashmatrix.hydra.job_launch import JOB_RETURN, JobLaunch, preparation, write_batch
from crashmatrix.hydra.jobs import SweepInputError, SweepJob, check_fixed_knobs, parse_jobs
from crashmatrix.hydra.outputs import OutputDirs
from crashmatrix.hydra.returns import job_return, read_sent
from crashmatrix.matrix.executor_settings import RANK_KEYS
from crashmatrix.matrix.spec import Matrix
from crashmatrix.outcome import is_failure
from crashmatrix.resolve.files import REPRO_DIR, RESOLUTION_JSON, RESOLUTION_MD
from crashmatrix.rundir.store import RunDir
from crashmatrix.text import shown_path

EXECUTORS = ("local", "submitit-local", "slurm")
# An earlier sweep's run in a reused sweep directory is moved here, never written over.
EARLIER = "crashmatrix-earlier-{stamp}"
# resolve's files are the earlier run's too: a resolution.md left beside the new run would tell its causes
OURS = (
    "results.csv",
    "summary.md",
    "report.html",
    "env.json",
    "matrix.yaml",
    "hunt.json",
    "cells",
    ".hydra-batches",
) + (RESOLUTION_MD, RESOLUTION_JSON, REPRO_DIR)


@dataclass(frozen=True)
class Settings:
    """hydra.launcher's settings (hydra_plugins/crashmatrix/config.py), checked."""

    jobs: int = 1
    timeout: float = 600.0
    kill_grace: float = 3.0
    executor: str = "local"
    gpus: tuple | None = None  # CUDA_VISIBLE_DEVICES sets, one per running job
    knobs: dict = field(default_factory=dict)
    sync_rerun: bool = True
    slurm: dict = field(default_factory=dict)

    @staticmethod
    def of(node) -> Settings:
        def number(key: str, minimum: float, whole: bool = False):
            value = node.get(key)
            ok = isinstance(value, int) if whole else isinstance(value, (int, float))
            if isinstance(value, bool) or not ok or value < minimum:
                kind = "a whole number" if whole else "a number"
                raise SweepInputError(f"crashmatrix: hydra.launcher.{key}: expected {kind} >= {minimum}, got {value!r}")
            return value

        executor = node.get("executor", "local")
        if executor not in EXECUTORS:
            raise SweepInputError(
                f"crashmatrix: hydra.launcher.executor: {executor!r} is not one of {', '.join(EXECUTORS)}"
            )
        jobs = number("jobs", 1, whole=True)
        gpus = None
        if node.get("gpus") is not None:
            from crashmatrix.process.gpus import gpu_sets

            try:
                gpus = tuple(gpu_sets(str(node.get("gpus")), node.get("gpus_per_job")))
            except BadInput as e:
                raise SweepInputError(f"crashmatrix: hydra.launcher.{str(e).lstrip('-')}") from None
            jobs = len(gpus) if jobs == 1 else min(jobs, len(gpus))
        slurm = _plain(node.get("slurm"))
        for key in RANK_KEYS:
            if key in slurm:  # each job's one process writes its returns: ranks would share them, untested
                raise SweepInputError(
                    f"crashmatrix: hydra.launcher.slurm.{key}: a job's ranks as Slurm tasks are not offered here; "
                    "run the app's matrix with `crashmatrix run --executor slurm`"
                )
        return Settings(
            jobs=jobs,
            timeout=float(number("timeout", 0.001)),
            kill_grace=float(number("kill_grace", 0)),
            executor=executor,
            gpus=gpus,
            knobs=check_fixed_knobs(_plain(node.get("knobs"))),
            sync_rerun=bool(node.get("sync_rerun", True)),
            slurm=slurm,
        )


def _plain(node) -> dict:
    from omegaconf import OmegaConf

    if node is None:
        return {}
    return dict(node) if isinstance(node, dict) else dict(cast(dict, OmegaConf.to_container(node, resolve=True)))


class SweepRun:
    """One multirun's run directory and its jobs so far, batch after batch (`launch`)."""

    def __init__(self, settings: Settings, hydra_context, task_function, config):
        self.settings, self.context, self.task_function, self.config = settings, hydra_context, task_function, config
        self.store: RunDir | None = None
        self.columns = SweepColumns()  # its axes and its constants
        self.outputs = OutputDirs()
        self.repeats: Counter = Counter()  # cell_id -> runs so far (a job that repeats another's overrides)
        self.results: list = []
        self.facts: dict = {}
        # A sweeper that launches many small batches (hunt) says its own answer: each batch's summary is
        # written, and only a line of it printed.
        self.brief = False
        self.strategy = "full"  # how the sweeper chose the jobs: matrix.yaml's strategy (explain hedges a pairwise one)

    def launch(self, job_overrides, initial_job_idx: int) -> list:
        from crashmatrix.runmatrix import Collected, record_fingerprint, start_fingerprint

        jobs = parse_jobs(job_overrides, initial_job_idx, self.settings.knobs)
        if not jobs:
            return []
        configs = [self._compose(job) for job in jobs]  # a config that does not compose stops all, as Hydra's own
        outputs = self.outputs.assign(jobs, configs)  # a folder two jobs would share stops all, nothing run
        self.columns.take_batch(jobs)
        matrix = self._matrix()
        first = self.store is None
        store = self._open(matrix)
        runs = [self._run_of(job) for job in jobs]
        pending = start_fingerprint([r.cell for r in runs], {}, True) if first else None
        if pending is not None:
            store.write_json("env.json", pending.facts)
        self._announce(matrix, jobs, store.path, first)
        from crashmatrix.report.summary import Progress

        collected = Collected(
            store, Progress(len(runs), self.settings.jobs, store.value_columns, stream=sys.stdout), None
        )
        ended = self._run(matrix, store, jobs, runs, outputs, collected)
        if pending is not None:
            if not ended.completed:
                pending.stop()
            self.facts = record_fingerprint(store, {}, pending.finish())
        self.results += collected.results
        total = len(self.results) + (0 if ended.completed else len(runs) - len(collected.results))
        self._summarise(matrix, store, total, ended.completed)
        if not ended.completed:
            print(
                f"crashmatrix: interrupted ({ended.interrupted_by}); the sweep's jobs so far are in "
                f"{shown_path(store.path)}",
                file=sys.stderr,
                flush=True,
            )
            sys.exit(130)
        return self._returns(store, jobs, configs, runs, collected.results)

    def _summarise(self, matrix: Matrix, store: RunDir, total: int, completed: bool) -> None:
        import io

        from crashmatrix.runmatrix import summarise

        stream = io.StringIO() if self.brief else sys.stdout
        summarise(matrix, store, self.facts, expected=total, completed=completed, early="", stream=stream)
        if self.brief:
            counts = Counter(r.outcome for r in self.results)
            print(
                f"crashmatrix: {len(self.results)} jobs so far: "
                + " ".join(f"{o} {n}" for o, n in counts.most_common())
                + f"; {shown_path(os.path.join(store.path, 'summary.md'))}",
                flush=True,
            )

    # --- before the jobs ---------------------------------------------------

    def _compose(self, job: SweepJob):
        from omegaconf import open_dict

        config = self.context.config_loader.load_sweep_config(self.config, list(job.app_overrides))
        with open_dict(config):
            config.hydra.job.id = job.num
            config.hydra.job.num = job.num
        return config

    def _matrix(self) -> Matrix:
        sweep_dir = str(self.config.hydra.sweep.dir)
        return Matrix(
            path=os.path.join(sweep_dir, "multirun.yaml"),
            name=str(self.config.hydra.job.name),
            command=app_command(),
            pass_params="overrides",
            inject=True,
            params={**self.columns.params(), **self.settings.knobs},
            axes={k: list(v) for k, v in self.columns.axes.items()},
            axis_keys=self.columns.axis_keys(),
            timeout=self.settings.timeout,
            kill_grace=self.settings.kill_grace,
            sync_rerun=self.settings.sync_rerun,
            preflight=False,
            executor=dict(self.settings.slurm),
            strategy=self.strategy,
            params_first=False,
        )

    def _open(self, matrix: Matrix):
        import yaml

        if self.store is None:
            store = RunDir(os.path.dirname(matrix.path))
            set_aside_earlier(store.path)
            store.create(matrix.to_yaml_dict(), list(matrix.axes), beside_others=True)
            self.store = store
        else:  # a later batch: matrix.yaml lists every value so far; a column new in it is not in results.csv
            store = self.store
            store.write_text("matrix.yaml", yaml.safe_dump(matrix.to_yaml_dict(), sort_keys=False))
        return store

    def _run_of(self, job: SweepJob) -> CellRun:
        cell = Cell.of(self.columns.cell_values(job))
        run = CellRun(cell, self.repeats[cell.cell_id])
        self.repeats[cell.cell_id] += 1
        return run

    def _announce(self, matrix: Matrix, jobs: list, path: str, first: bool) -> None:
        how = (
            f"{min(self.settings.jobs, len(jobs))} at a time"
            if self.settings.executor == "local"
            else f"through {self.settings.executor}"
        )
        print(
            f"crashmatrix: {matrix.name}: {len(jobs)} job{'s' if len(jobs) != 1 else ''} (#{jobs[0].num} to #{jobs[-1].num}), each in its own "
            f"process, {how}; into {shown_path(path)}",
            flush=True,
        )
        if first and self.columns.constants:  # once: the progress lines show the axes only
            print(f"crashmatrix: the same in every job: {self.columns.shown()}", flush=True)

    # --- the jobs ------------------------------------------------------------

    def _run(self, matrix: Matrix, store, jobs: list, runs: list, outputs: list, collected):
        shared = {
            "singletons": _singleton_state(),
            "hydra_context": self.context,
            "config": self.config,
            "task_function": self.task_function,
            "task_name": task_name(self.task_function),
        }
        batch = write_batch(store.path, jobs[0].num, shared)
        build = JobLaunch(
            batch,
            {r.dirname: (j.app_overrides, j.num, j.knobs, o) for j, r, o in zip(jobs, runs, outputs)},
            preparation(),
        )
        from crashmatrix.runmatrix import run_todo

        return run_todo(
            matrix,
            store,
            runs,
            executor=self.settings.executor,
            jobs=self.settings.jobs,
            gpus=list(self.settings.gpus or []) or None,
            on_result=collected,
            stop_starting=None,
            stream=sys.stdout,
            build=build,
        )

    def _returns(self, store: RunDir, jobs: list, configs: list, runs: list, results: list) -> list:
        by_key = {r.key: r for r in results}
        failed = sum(is_failure(r.outcome) for r in self.results)
        tally = f"{failed} of the sweep's {len(self.results)} jobs failed, every one ran: {shown_path(os.path.join(store.path, 'summary.md'))}"
        out = []
        for job, config, run in zip(jobs, configs, runs):
            result = by_key[run.key]
            sent = read_sent(os.path.join(store.path, result.log_dir, JOB_RETURN))
            out.append(job_return(job.overrides, config, result, sent, run_dir=store.path, failed=tally))
        return out


def _singleton_state():
    from hydra.core.singleton import Singleton

    return Singleton.get_state()


def task_name(task_function) -> str | None:
    """The name the app's script defines its task function under, where it is that script's (`__main__`)."""
    if getattr(task_function, "__module__", None) != "__main__":
        return None
    name = getattr(task_function, "__qualname__", "")
    return name if name and "<" not in name else None


def app_command() -> tuple:
    """How the app was started, as a matrix's command: `python app.py`, `python -m pkg.app`."""
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None)
    if name:
        return ("python", "-m", name.removesuffix(".__main__"))
    path = getattr(main, "__file__", None)
    return ("python", os.path.abspath(path)) if path else ("python",)


def _holds_job_output(folder: str) -> bool:
    """A folder of an earlier sweep's job output: a `.hydra` folder in it, or below it for a subdir
    pattern with a slash (`${model}/${lr}`); never one of crashmatrix's own or an earlier set-aside run."""
    name = os.path.basename(folder)
    if name in OURS or name.startswith(EARLIER.format(stamp="")) or not os.path.isdir(folder):
        return False
    return any(".hydra" in dirs for _root, dirs, _files in os.walk(folder))


def set_aside_earlier(path: str) -> None:
    """Hydra reuses a sweep directory it is given again, and its jobs would write into the earlier sweep's
    job folders (same overrides, same folder); crashmatrix's run from the earlier sweep is moved into a
    folder of its own there, whole: its files and its jobs' Hydra outputs."""
    if not os.path.exists(os.path.join(path, "results.csv")):
        return
    from crashmatrix.rundir.store import read_rows

    read_rows(path)  # not crashmatrix's results.csv: BadInput, nothing moved
    aside = os.path.join(path, EARLIER.format(stamp=time.strftime("%Y%m%d-%H%M%S")))
    outputs = [name for name in sorted(os.listdir(path)) if _holds_job_output(os.path.join(path, name))]
    os.makedirs(aside)
    for name in [*OURS, *outputs]:
        if os.path.exists(os.path.join(path, name)):
            os.rename(os.path.join(path, name), os.path.join(aside, name))
    print(
        f"crashmatrix: the earlier sweep's run in this directory is now in {shown_path(aside)}",
        file=sys.stderr,
        flush=True,
    )
