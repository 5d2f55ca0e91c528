"""`hydra/sweeper=crashmatrix`: `hydra.sweeper.strategy: full|pairwise|hunt` over the sweep's choices.

The work is crashmatrix.hydra.sweeper's; this class is what Hydra instantiates and calls. Hydra's plugin
scan imports this module whenever any Hydra app starts, so crashmatrix's own modules load only when a
sweep starts.
"""

from typing import Any, Optional

from hydra.core.plugins import Plugins
from hydra.plugins.launcher import Launcher
from hydra.plugins.sweeper import Sweeper
from hydra.types import HydraContext, TaskFunction
from omegaconf import DictConfig


class CrashmatrixSweeper(Sweeper):
    def __init__(self, **settings: Any) -> None:
        # Checked when the sweep starts: a problem raised here would come wrapped in Hydra's instantiate error.
        self.settings = settings
        self.launcher: Optional[Launcher] = None
        self.config: Optional[DictConfig] = None
        self.hydra_context: Optional[HydraContext] = None

    def setup(self, *, hydra_context: HydraContext, task_function: TaskFunction, config: DictConfig) -> None:
        self.config, self.hydra_context = config, hydra_context
        self.launcher = Plugins.instance().instantiate_launcher(
            hydra_context=hydra_context, task_function=task_function, config=config
        )

    def sweep(self, arguments: list[str]) -> Any:
        from crashmatrix.errors import BadInput
        from crashmatrix.hydra.jobs import SweepInputError
        from crashmatrix.hydra.strategies import SweeperSettings
        from crashmatrix.hydra.sweeper import Sweeping, kept_strategy

        assert self.launcher is not None and self.config is not None, "setup() first"
        try:
            settings = SweeperSettings.of(self.settings)
            if hasattr(self.launcher, "brief"):  # crashmatrix's launcher: the run directory says how jobs were chosen
                self.launcher.brief = settings.strategy == "hunt"  # hunt says its answer; the launcher a line a batch
                self.launcher.strategy = kept_strategy(settings.strategy)
            params = [f"{k}={v}" for k, v in (self.settings.get("params") or {}).items()]
            return Sweeping(settings, self.launcher, self.config, self.hydra_context).run(params + list(arguments))
        except BadInput as e:
            raise SweepInputError(f"crashmatrix: {e}") from None
