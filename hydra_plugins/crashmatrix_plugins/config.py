"""The configs of `hydra/launcher=crashmatrix` and `hydra/sweeper=crashmatrix` (docs/hydra.md)."""

from dataclasses import dataclass, field
from typing import Any, Optional

from hydra.core.config_store import ConfigStore


@dataclass
class CrashmatrixLauncherConf:
    _target_: str = "hydra_plugins.crashmatrix_plugins.launcher.CrashmatrixLauncher"
    # jobs at a time, each in its own fresh process
    jobs: int = 1
    # seconds a job may run before it is stopped (stacks saved) and recorded as timeout
    timeout: float = 600
    # seconds between SIGTERM and SIGKILL
    kill_grace: float = 3
    # local | submitit-local | slurm
    executor: str = "local"
    # GPU ids to share out, e.g. "0,1,2,3": each running job gets its own (gpus_per_job of them)
    gpus: Optional[str] = None
    gpus_per_job: Optional[int] = None
    # knobs fixed for the whole sweep ({start_method: spawn}); +crashmatrix.<knob>=a,b sweeps one
    knobs: dict[str, Any] = field(default_factory=dict)
    # a cuda_error job runs once more with CUDA_LAUNCH_BLOCKING=1
    sync_rerun: bool = True
    # executor settings for submitit (partition, time_min, gpus_per_task, ...), as a matrix's `executor:`
    slurm: dict[str, Any] = field(default_factory=dict)


ConfigStore.instance().store(
    group="hydra/launcher", name="crashmatrix", node=CrashmatrixLauncherConf, provider="crashmatrix"
)


@dataclass
class CrashmatrixSweeperConf:
    _target_: str = "hydra_plugins.crashmatrix_plugins.sweeper.CrashmatrixSweeper"
    # full | pairwise | hunt
    strategy: str = "full"
    # pairwise: t of its t-way coverage (default 2); hunt: conjunctions of up to this many values (default 3)
    order: Optional[int] = None
    seed: int = 0
    # hunt: a cause is named at this confidence; at most max_runs jobs; batch jobs at a time (default:
    # hydra.launcher.jobs where the launcher has it, else 1)
    confidence: float = 0.95
    max_runs: int = 200
    batch: Optional[int] = None
    # overrides to sweep, as Hydra's basic sweeper takes them: {a: "0,1,2"}
    params: Optional[dict[str, str]] = None


ConfigStore.instance().store(
    group="hydra/sweeper", name="crashmatrix", node=CrashmatrixSweeperConf, provider="crashmatrix"
)
