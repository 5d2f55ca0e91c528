"""One job of a Hydra multirun, in its own fresh process: `python -m crashmatrix.hydra.job JOB.json`.

It becomes what a spawned worker of the multirun's process would be (multiprocessing's own preparation:
its sys.path, sys.argv, working directory, and the app's script as `__main__`, so the app's classes
pickle by name for its own DataLoader workers), then does what Hydra's basic launcher does for a job:
restores Hydra's global state, composes the job's config from its overrides, sets hydra.job.id and
hydra.job.num, and calls run_job. The JobReturn goes back pickled; a job whose task raised ends as the
app alone would (Hydra's error report, exit status 1), after that.

The knobs were applied before any of this, from outside (our sitecustomize, as under inject).
"""

from __future__ import annotations

import json
import sys


def _task_function(payload: dict):
    """The app's task function as its own script defines it, where it can be found by name; else the copy
    that came pickled (a function defined in a test, say)."""
    import inspect

    named = payload.get("task_name")
    main = sys.modules.get("__main__")
    if named and main is not None:
        found = getattr(main, named, None)
        if found is not None:
            found = inspect.unwrap(found)  # @hydra.main wraps it (functools.wraps)
            if getattr(found, "__code__", None) is not None and found.__code__.co_name == named.rsplit(".", 1)[-1]:
                return found
    return payload["task_function"]


def _send_back(ret, path: str) -> None:
    """The JobReturn, pickled for the launcher; a return value that cannot be pickled is left out, said."""
    import cloudpickle

    try:
        data = cloudpickle.dumps(ret)
    except Exception as e:
        print(
            f"crashmatrix: the job's return value cannot be pickled ({type(e).__name__}: {e}); None is sent back",
            file=sys.stderr,
            flush=True,
        )
        ret._return_value = (
            None if not isinstance(ret.return_value, BaseException) else RuntimeError(repr(ret.return_value))
        )
        data = cloudpickle.dumps(ret)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    import os

    os.replace(path + ".tmp", path)


def _as_alone(overrides: list, config) -> None:
    """A program that starts itself again for each rank (Lightning's ddp runs `sys.argv` once more per rank,
    with Hydra's run.dir) must start this job as the app alone would, never the whole multirun again:
    sys.argv is the app's script with this job's overrides, and its run.dir this job's own directory."""
    from omegaconf import open_dict

    sys.argv = [sys.argv[0], *overrides]
    with open_dict(config):
        # an interpolation, resolved as run_job resolves the job's own directory (its ${now:...} included)
        config.hydra.run.dir = "${hydra.sweep.dir}/${hydra.sweep.subdir}"


def run(spec_path: str) -> int:
    import multiprocessing.spawn

    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    multiprocessing.spawn.prepare(spec["preparation"])

    import cloudpickle
    from hydra.core.singleton import Singleton
    from hydra.core.utils import JobStatus, run_job, setup_globals
    from omegaconf import open_dict

    with open(spec["batch"], "rb") as f:
        payload = cloudpickle.load(f)  # what every job of the batch shares: Hydra's state, config, task
    Singleton.set_state(payload["singletons"])
    setup_globals()
    context = payload["hydra_context"]
    config = context.config_loader.load_sweep_config(payload["config"], list(spec["overrides"]))
    with open_dict(config):
        config.hydra.job.id = spec["job_num"]
        config.hydra.job.num = spec["job_num"]
        # The launcher's: override_dirname with the knobs in it, and the folder where the pattern's own
        # would be an earlier job's (crashmatrix.hydra.outputs)
        config.hydra.job.override_dirname = spec["override_dirname"]
        if spec.get("subdir") is not None:
            config.hydra.sweep.subdir = spec["subdir"]
    _as_alone(spec["overrides"], config)
    ret = run_job(
        hydra_context=context,
        task_function=_task_function(payload),
        config=config,
        job_dir_key="hydra.sweep.dir",
        job_subdir_key="hydra.sweep.subdir",
    )
    _send_back(ret, spec["returns"])
    if ret.status == JobStatus.FAILED:
        from hydra._internal.utils import run_and_report

        # As the app alone reports its task's exception: the traceback from the task on, exit status 1.
        run_and_report(lambda: ret.return_value)
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1]))
