"""What Hydra gets back for each job: the JobReturn the job's process sent (its config, working directory
and return value), or, where it sent none (it crashed, hung, was killed), one made here from the config
the launcher composed for it.

Hydra's convention is kept: a job that did not pass is a FAILED JobReturn whose return value is the
failure, which Hydra's sweeper raises once every job of the batch has run (exit status 1). That failure is
JobFailed, one line: the job, how it ended, its logs, and how many of the sweep's jobs failed; a task's own
exception rides along as its __cause__. A skip (a knob this machine cannot apply) is COMPLETED with None.
"""

from __future__ import annotations

import copy
import os

from hydra.core.utils import JobReturn, JobStatus
from hydra.errors import CompactHydraException
from omegaconf import DictConfig, OmegaConf, open_dict, read_write

from crashmatrix.outcome import FailureKind, is_failure
from crashmatrix.rundir.store import RunResult
from crashmatrix.text import shown_path


class JobFailed(CompactHydraException):
    """A job of the sweep did not pass; the message is one line."""


def read_sent(path: str) -> JobReturn | None:
    """The JobReturn the job's process pickled, or None (it ended before sending one)."""
    import cloudpickle

    try:
        with open(path, "rb") as f:
            sent = cloudpickle.load(f)
    except Exception:  # absent, cut short, or a class that no longer unpickles: as if never sent
        return None
    return sent if isinstance(sent, JobReturn) else None


def composed_return(config: DictConfig) -> JobReturn:
    """A JobReturn of the job's composed config, as run_job fills one before calling the task."""
    task_cfg = copy.deepcopy(config)
    with read_write(task_cfg), open_dict(task_cfg):
        del task_cfg["hydra"]
    ret = JobReturn(cfg=task_cfg, hydra_cfg=OmegaConf.create({"hydra": config.hydra}), task_name=config.hydra.job.name)
    try:
        out = os.path.join(str(config.hydra.sweep.dir), str(config.hydra.sweep.subdir))
        ret.working_dir = os.path.abspath(out) if config.hydra.job.chdir else os.getcwd()
    except Exception:  # a subdir that needs Hydra's runtime resolvers: unknown here
        ret.working_dir = None
    return ret


def job_return(
    overrides, config: DictConfig, result: RunResult, sent: JobReturn | None, *, run_dir: str, failed: str
) -> JobReturn:
    """The job's JobReturn; `failed` is the sweep's tally for JobFailed's message ('1 of 4 jobs failed ...')."""
    ret = sent if sent is not None else composed_return(config)
    ret.overrides = list(overrides)
    if not is_failure(result.outcome):
        if sent is None or ret.status != JobStatus.COMPLETED:
            ret.status, ret.return_value = JobStatus.COMPLETED, None
        return ret
    cause = ret._return_value if sent is not None and isinstance(ret._return_value, BaseException) else None
    kind = FailureKind(result.outcome, result.signal, result.signature).label()
    error = f": {result.error}" if result.error else ""
    log_dir = os.path.join(run_dir, result.log_dir)
    failure = JobFailed(
        f"crashmatrix: job #{config.hydra.job.num} ({' '.join(overrides)}) ended {kind}{error}; its logs: "
        f"{shown_path(log_dir)}; {failed}"
    )
    failure.__cause__ = cause
    ret.status, ret.return_value = JobStatus.FAILED, failure
    return ret
