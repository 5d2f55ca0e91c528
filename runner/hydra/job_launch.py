"""What starts one job of a Hydra sweep: `python -m crashmatrix.hydra.job job.json` in the job's cell
directory's environment (crashmatrix.process.launch.run_env), its knobs injected as under `inject: true`.

The batch's shared part (Hydra's global state, the sweep's config, the task function) is pickled once
per batch with cloudpickle into the sweep directory; each job's job.json names it, with the job's own
overrides and number and how to become the multirun's process (multiprocessing's preparation data).
"""

from __future__ import annotations

import os
import sys

from crashmatrix.cell import CellRun, spell
from crashmatrix.incell.atomic import write_json_atomic
from crashmatrix.matrix.spec import Matrix
from crashmatrix.process import supervise
from crashmatrix.process.launch import inject_knobs, run_env
from crashmatrix.rundir.unwritable import writing

JOB_SPEC = "job.json"
JOB_RETURN = "job_return.pkl"
BATCHES = ".hydra-batches"  # in the sweep directory


def preparation() -> dict:
    """What a spawned worker of this process is given to become like it (multiprocessing.spawn's
    get_preparation_data, without the start method, which is a knob here, and without the authkey)."""
    from multiprocessing import process

    original = getattr(process, "ORIGINAL_DIR", None)  # where this process started (multiprocessing's note)
    data = {"sys_path": list(sys.path), "sys_argv": list(sys.argv), "dir": os.getcwd()}
    if original is not None:
        data["orig_dir"] = original
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None)
    path = getattr(main, "__file__", None)
    if name is not None:
        data["init_main_from_name"] = name
    elif path is not None:
        data["init_main_from_path"] = os.path.normpath(os.path.join(original or os.getcwd(), path))
    return data


def write_batch(run_dir: str, first_num: int, shared: dict) -> str:
    """The batch's shared payload, pickled once; its path. A task function that cannot be pickled is left
    for the job to find by name in the app's script."""
    import cloudpickle

    try:
        data = cloudpickle.dumps(shared)
    except Exception:
        if not shared.get("task_name"):
            raise
        data = cloudpickle.dumps(dict(shared, task_function=None))
    folder = os.path.join(run_dir, BATCHES)
    path = os.path.join(folder, f"batch-{first_num}.pkl")
    with writing(run_dir):
        os.makedirs(folder, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return path


class JobLaunch:
    """The engine's `build` for a sweep's jobs (picklable: a submitit job builds its launches with it).

    jobs: each run's directory name -> (its overrides for the app, its job number, its knobs, its output:
    crashmatrix.hydra.outputs.JobOutput).
    """

    def __init__(self, batch_path: str, jobs: dict, prepared: dict):
        self.batch_path, self.jobs, self.prepared = batch_path, jobs, prepared

    def __call__(self, matrix: Matrix, run: CellRun, cell_dir: str, run_dir: str, gpu: str | None) -> supervise.Launch:
        overrides, num, knobs, output = self.jobs[run.dirname]
        env = run_env(matrix, run, cell_dir, run_dir, gpu)
        env.update({k[4:]: spell(v) for k, v in knobs.items() if k.startswith("env.")})
        inject_knobs(env, {k: v for k, v in knobs.items() if not k.startswith("env.")})
        spec_path = os.path.join(cell_dir, JOB_SPEC)
        spec = {
            "batch": self.batch_path,
            "overrides": list(overrides),
            "job_num": num,
            "override_dirname": output.override_dirname,
            "subdir": output.subdir,
            "returns": os.path.join(cell_dir, JOB_RETURN),
            "preparation": self.prepared,
        }
        with writing(run_dir):
            write_json_atomic(spec_path, spec)
        return supervise.Launch(
            argv=[sys.executable, "-m", "crashmatrix.hydra.job", spec_path],
            env=env,
            cwd=self.prepared["dir"],
            stdout_path=os.path.join(cell_dir, "stdout.log"),
            stderr_path=os.path.join(cell_dir, "stderr.log"),
            token=env[supervise.TOKEN_VAR],
        )
