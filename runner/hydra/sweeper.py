"""`hydra/sweeper=crashmatrix`: the sweep's choices as axes, and the jobs of `strategy: full|pairwise|hunt`
launched through whichever launcher the multirun has (crashmatrix's gives each job's classified outcome).

full and pairwise launch their jobs in one batch and, as Hydra's basic sweeper does, raise the first
failed job's failure once all have run (exit status 1). hunt launches a batch at a time, chosen from what
failed so far (crashmatrix.hunt.search), until every failing conjunction of up to `order` values is named or
`max_runs` jobs ran; it answers on the console and in hunt.json in the sweep directory, and a job failing
is what it is looking for, so it ends with exit status 0.
"""

from __future__ import annotations

import os
import sys

from crashmatrix.hydra.strategies import SweeperSettings, axes_of, job_of, planned_jobs, split
from crashmatrix.outcome import Outcome
from crashmatrix.text import shown_path


class Sweeping:
    """One multirun's sweep: `run(arguments)` returns the JobReturns, batch by batch, as Hydra expects."""

    def __init__(self, settings: SweeperSettings, launcher, config, hydra_context):
        self.settings, self.launcher, self.config, self.context = settings, launcher, config, hydra_context
        self.sweep_dir = str(config.hydra.sweep.dir)
        self.launched = 0

    def run(self, arguments: list[str]) -> list:
        from omegaconf import OmegaConf

        items = split(list(arguments), self.context.config_loader)
        if hasattr(self.launcher, "axes"):  # crashmatrix's launcher: hunt's first batches hold one value of an axis
            self.launcher.axes = [a.column for a in axes_of(items)]
        os.makedirs(self.sweep_dir, exist_ok=True)
        OmegaConf.save(self.config, os.path.join(self.sweep_dir, "multirun.yaml"))
        if self.settings.strategy == "hunt":
            _warn_in_process(self.launcher)
            return self._hunt(items)
        jobs = planned_jobs(self.settings, items)
        if self.settings.strategy == "pairwise":
            print(f"crashmatrix: pairwise over {len(axes_of(items))} axes: {len(jobs)} jobs", flush=True)
        returns = self._launch(jobs)
        for r in returns:
            _ = r.return_value  # a failed job's failure is raised, as Hydra's basic sweeper does
        return [returns]

    def _launch(self, jobs: list[list[str]]) -> list:
        returns = list(self.launcher.launch(jobs, initial_job_idx=self.launched))
        self.launched += len(jobs)
        return returns

    # --- hunt ------------------------------------------------------------------

    def _hunt(self, items: list) -> list:
        from crashmatrix.hunt.model import Evidence, Space, run_of_row
        from crashmatrix.hunt.search import hunt

        axes = axes_of(items)
        space = Space(
            [a.column for a in axes], [list(a.spelled) for a in axes], min(self.settings.order or 3, len(axes))
        )
        batches: list = []
        named: dict = {}
        batch = self.settings.batch or int(self.config.hydra.launcher.get("jobs", 1) or 1)

        def run_batch(cells) -> list:
            rows = [dict(zip(space.axes, cell)) for cell in cells]
            returns = self._launch([job_of(items, row) for row in rows])
            batches.append(returns)
            outcomes = self._outcomes(rows, returns)
            return [r for r in (run_of_row(row, space) for row in outcomes) if r is not None]

        def on_state(state) -> None:
            from crashmatrix.hunt.text import cause_sentence

            for cause in state.causes:
                if (cause.kind, cause.conditions) not in named:
                    named[(cause.kind, cause.conditions)] = self.launched
                    print(f"found after {self.launched} jobs: {cause_sentence(space, cause)}", flush=True)

        print(
            f"crashmatrix: hunt over {len(axes)} axes, conjunctions of up to {space.order} values; at most "
            f"{self.settings.max_runs} jobs, {batch} at a time",
            flush=True,
        )
        state = hunt(
            Evidence(space),
            run_batch,
            confidence=self.settings.confidence,
            jobs=batch,
            max_runs=self.settings.max_runs,
            seed=self.settings.seed,
            on_state=on_state,
        )
        self._answer(space, state, named)
        return batches

    def _outcomes(self, rows: list[dict], returns: list) -> list[dict]:
        """Each job's row as results.csv has it (crashmatrix's launcher), else pass/fail from its JobReturn."""
        recorded = _last_rows(self.sweep_dir, len(rows))
        if recorded is not None:
            return recorded
        from hydra.core.utils import JobStatus

        out = []
        for row, ret in zip(rows, returns):
            failed = ret.status != JobStatus.COMPLETED
            signature = type(ret._return_value).__name__ if failed else ""
            outcome = Outcome.FAIL if failed else Outcome.PASS
            out.append(dict(row, outcome=outcome.value, signal="", signature=signature))
        return out

    def _answer(self, space, state, named: dict) -> None:
        from crashmatrix.hunt.text import best_so_far, cause_sentence, hunt_json
        from crashmatrix.incell.atomic import write_json_atomic

        path = os.path.join(self.sweep_dir, "hunt.json")
        write_json_atomic(path, hunt_json(space, state, self.launched, named))
        lines = [cause_sentence(space, c) for c in best_so_far(state)] or ["no failure seen"]
        print("", flush=True)
        for line in lines:
            print(line, flush=True)
        done = hunt_ending(state.complete, self.launched, self.settings.max_runs)
        print(f"hunt: {done} after {self.launched} jobs; hunt.json: {shown_path(path)}", file=sys.stdout, flush=True)


def _warn_in_process(launcher) -> None:
    """Hydra's basic launcher runs each job in the sweep's own process: the first job that dies by a signal
    (the crash a hunt looks for) ends the whole sweep, and the hunt with it. Said once, at the start."""
    if type(launcher).__name__ == "BasicLauncher":
        print(
            "crashmatrix: hunt under Hydra's basic launcher runs every job in this one process: the first job "
            "that crashes ends the sweep; add hydra/launcher=crashmatrix to run each job in its own process",
            file=sys.stderr,
            flush=True,
        )


def kept_strategy(strategy: str) -> str:
    """The strategy the sweep directory's matrix.yaml keeps: a hunt's matrix is the space it searched, run in
    full by `crashmatrix run SWEEP/matrix.yaml` (as `crashmatrix hunt` keeps its matrix), and hunt.json says a
    hunt chose the jobs; `strategy: hunt` there made every verb that reads it exit 2."""
    return "pairwise" if strategy == "pairwise" else "full"


def hunt_ending(complete: bool, launched: int, max_runs: int) -> str:
    """How the hunt ended, as hunt.json's `complete` has it: complete only where nothing was left to ask
    (every failure pinned down, every other conjunction run clean), whatever the jobs' count; else why it
    stopped short: the budget, or no job left that could settle the rest."""
    if complete:
        return "complete"
    if launched >= max_runs:
        return "stopped at max_runs, not complete (the causes are the best so far)"
    return "stopped, not complete: no job left to run could settle the rest (the causes are the best so far)"


def _last_rows(sweep_dir: str, n: int) -> list[dict] | None:
    """The last n rows of the sweep directory's results.csv, or None where there is none (another launcher)."""
    if not os.path.exists(os.path.join(sweep_dir, "results.csv")):
        return None
    from crashmatrix.rundir.store import read_rows

    rows, _columns, _path = read_rows(sweep_dir)
    return rows[-n:] if len(rows) >= n else None
