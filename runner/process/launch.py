"""What starts one cell run: its argv (no shell), environment, working directory and log paths.

Building a launch writes only into the cell's directory (cell.json for a probe, the cell's own
TMPDIR and the like: crashmatrix.rundir.cell_files); starting and ending the process is crashmatrix.process.supervise's.
"""

from __future__ import annotations

import json
import os
import uuid

from crashmatrix.cell import CellRun, spell
from crashmatrix.incell.atomic import write_json_atomic
from crashmatrix.matrix.app_args import arguments, cell_params
from crashmatrix.matrix.executor_settings import rank_layout
from crashmatrix.matrix.interpreters import of_cell
from crashmatrix.matrix.option_flags import script_flags
from crashmatrix.matrix.spec import Matrix
from crashmatrix.process import slurm_tasks, supervise
from crashmatrix.process.package_path import package_path
from crashmatrix.redaction import REDACTED
from crashmatrix.rundir import cell_files
from crashmatrix.rundir.unwritable import writing

INJECT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "incell", "inject")


def _prepend_path(env: dict, var: str, entry: str) -> None:
    env[var] = entry + (os.pathsep + env[var] if env.get(var) else "")


def cell_env(matrix: Matrix, values: dict) -> dict:
    """Our environment with the matrix's `env` and the cell's env.* axes over it, unbuffered, faulthandler on."""
    env = dict(os.environ)
    # A secret's value is never written, so a matrix reloaded from a run directory (--resume, a Slurm
    # job) holds a placeholder: the variable then comes from the environment, as secrets should.
    env.update({k: v for k, v in matrix.env.items() if v != REDACTED})
    env.update({k[4:]: spell(v) for k, v in values.items() if k.startswith("env.")})
    env.setdefault("PYTHONFAULTHANDLER", "1")
    env["PYTHONUNBUFFERED"] = "1"  # a crash must not swallow the last lines it printed
    return env


def build_launch(matrix: Matrix, run: CellRun, cell_dir: str, run_dir: str, gpu: str | None = None) -> supervise.Launch:
    """What starts one cell run: argv (no shell), environment, working directory and log paths.

    A probe runs as `python -m crashmatrix.child cell.json`; a command gets the cell's parameters as
    key=value arguments (pass_params: overrides), `--key=value` options (pass_params: options) or, with
    `inject`, its knobs from outside.
    `gpu` becomes CUDA_VISIBLE_DEVICES. The run's files stay in `cell_dir` (crashmatrix.rundir.cell_files).
    With `executor: {tasks_per_node: N, nodes: M}` the program starts once per Slurm task, through srun.
    """
    values = run.cell.values
    params = cell_params(matrix, values)
    env = run_env(matrix, run, cell_dir, run_dir, gpu)
    if matrix.probe:
        argv, cwd = _probe_argv(matrix, params, env, cell_dir, values)
    else:
        argv, cwd = _command_argv(matrix, params, env, values)
        if matrix.pass_params == "overrides" and cell_files.is_hydra_app(matrix.command or ()):
            argv += cell_files.hydra_dirs(argv, cell_dir)  # the app's own directories: the last arguments
    launch = supervise.Launch(
        argv=argv,
        env=env,
        cwd=cwd,
        stdout_path=os.path.join(cell_dir, "stdout.log"),
        stderr_path=os.path.join(cell_dir, "stderr.log"),
        token=env[supervise.TOKEN_VAR],
    )
    layout = rank_layout(matrix.executor)
    return launch if layout is None else slurm_tasks.as_tasks(launch, cell_dir, *layout)


def run_env(matrix: Matrix, run: CellRun, cell_dir: str, run_dir: str, gpu: str | None) -> dict:
    """The environment of one run: the cell's (cell_env), its GPU set, the CRASHMATRIX_* variables that
    place its files and name its process tree, and its own TMPDIR and WANDB_DIR (made now)."""
    values = run.cell.values
    env = cell_env(matrix, values)
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpu
    env.update(
        {
            supervise.TOKEN_VAR: f"{uuid.uuid4().hex[:12]}-{run.dirname}",
            "CRASHMATRIX_RUN_DIR": run_dir,
            "CRASHMATRIX_CELL_DIR": cell_dir,
            "CRASHMATRIX_CELL_ID": run.cell.cell_id,
            "CRASHMATRIX_REPEAT": str(run.repeat),
            "CRASHMATRIX_REPORT": os.path.join(cell_dir, "report.json"),
        }
    )
    with writing(run_dir):
        cell_files.give_dirs(env, cell_dir, cell_files.user_set(matrix.env, values))
    return env


def inject_knobs(env: dict, knobs: dict) -> None:
    """Apply `knobs` from outside (inject): our sitecustomize on PYTHONPATH reads them from CRASHMATRIX_KNOBS
    in the program and in every Python process it starts; wandb's mode is WANDB_MODE."""
    # Only the folder of our sitecustomize: the project root would shadow a `runner` or
    # `probes` package of the user's own.
    _prepend_path(env, "PYTHONPATH", INJECT_DIR)
    env["CRASHMATRIX_KNOBS"] = json.dumps(knobs)
    env.pop("CRASHMATRIX_INJECT_ROOT", None)  # the cell's own main process sets it
    if "wandb" in knobs:
        env["WANDB_MODE"] = spell(knobs["wandb"])


def _probe_argv(matrix: Matrix, params: dict, env: dict, cell_dir: str, values: dict) -> tuple[list[str], str]:
    """A built-in probe: the child's entry point reads the cell from cell.json; it runs in the cell directory."""
    spec_path = os.path.join(cell_dir, "cell.json")
    with writing(env["CRASHMATRIX_RUN_DIR"]):
        write_json_atomic(spec_path, {"probe": matrix.probe, "params": params, "report": env["CRASHMATRIX_REPORT"]})
    _prepend_path(env, "PYTHONPATH", package_path(env["CRASHMATRIX_RUN_DIR"]))
    # wandb's files stay with the cell, never in ~; the `wandb` parameter, not WANDB_MODE, decides.
    for var in ("WANDB_DIR", "WANDB_CACHE_DIR", "WANDB_CONFIG_DIR", "WANDB_DATA_DIR", "WANDB_ARTIFACT_DIR"):
        env.setdefault(var, cell_dir)
    env.setdefault("WANDB_SILENT", "true")
    env.pop("WANDB_MODE", None)
    return [of_cell(values), "-m", "crashmatrix.child", spec_path], cell_dir


def _command_argv(matrix: Matrix, params: dict, env: dict, values: dict) -> tuple[list[str], str]:
    """The user's command (its `python` the cell's interpreter), run in the matrix's `cwd`, else where
    crashmatrix was started.

    No bytecode cache is written into the user's tree.
    """
    argv = list(matrix.command or ())
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    if argv[0] in ("python", "python3"):
        argv[0] = of_cell(values)
    own = params
    if matrix.inject:
        from crashmatrix.matrix.knob_names import split_injected

        # The knobs are applied from outside, never passed: the program's own parser
        # (Hydra's struct config) would refuse a key it does not know.
        knobs, own = split_injected(params)
        inject_knobs(env, knobs)
    cwd = matrix.cwd or os.getcwd()
    if matrix.pass_params == "options":
        argv = argv + arguments(own, "options", script_flags(matrix.command or (), cwd))
    elif matrix.pass_params != "none":
        argv = argv + arguments(own, matrix.pass_params)
    return argv, cwd
