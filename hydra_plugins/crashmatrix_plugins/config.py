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
