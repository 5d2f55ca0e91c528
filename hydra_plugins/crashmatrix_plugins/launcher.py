"""`hydra/launcher=crashmatrix`: each job of a multirun in its own fresh process under crashmatrix's engine.

The work is crashmatrix.hydra.sweep's; this class is what Hydra instantiates and calls. Hydra's plugin
scan imports this module whenever any Hydra app starts (every cell of one too), so crashmatrix's own
modules load only when a sweep launches.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from hydra.core.utils import JobReturn
from hydra.plugins.launcher import Launcher
from hydra.types import HydraContext, TaskFunction
from omegaconf import DictConfig

if TYPE_CHECKING:
    from crashmatrix.hydra.sweep import SweepRun


class CrashmatrixLauncher(Launcher):
    def __init__(self, **settings: Any) -> None:
        # Checked at the first launch: a problem raised here would reach the user wrapped in Hydra's
        # instantiate error, not as one line.
        self.settings = settings
        self.sweep: Optional[SweepRun] = None
        self.setup_args: dict = {}
        # Set by crashmatrix's sweeper: hunt's many small batches print a line each; how the jobs were chosen.
        self.brief = False
        self.strategy = "full"
        self.axes: Optional[list] = None  # the sweep's axes, where the sweeper chose them; else told by the jobs

    def setup(self, *, hydra_context: HydraContext, task_function: TaskFunction, config: DictConfig) -> None:
        self.setup_args = {"hydra_context": hydra_context, "task_function": task_function, "config": config}

    def launch(self, job_overrides: Sequence[Sequence[str]], initial_job_idx: int) -> Sequence[JobReturn]:
        from crashmatrix.errors import BadInput
        from crashmatrix.hydra.jobs import SweepInputError
        from crashmatrix.hydra.sweep import Settings, SweepRun

        assert self.setup_args, "setup() first"
        try:
            if self.sweep is None:
                self.sweep = SweepRun(Settings.of(self.settings), **self.setup_args)
            self.sweep.brief, self.sweep.strategy = self.brief, self.strategy
            self.sweep.columns.declared = self.axes
            return self.sweep.launch(job_overrides, initial_job_idx)
        except BadInput as e:  # crashmatrix's own one line, in Hydra's way (exit status 1)
            raise SweepInputError(f"crashmatrix: {e}") from None
