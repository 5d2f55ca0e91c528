"""A Hydra app to sweep with `hydra/launcher=crashmatrix`: its job segfaults for a=1 c=2 and raises for
a=2; otherwise it builds a DataLoader over a Dataset of its own (loader=true), so that spawned workers
must find this script's classes, and prints what its process looks like."""

import json
import multiprocessing
import os
import signal

import hydra
from omegaconf import DictConfig, OmegaConf


class Squares:
    """A map-style dataset defined in the app's own script: a spawned worker unpickles it by name."""

    def __len__(self):
        return 16

    def __getitem__(self, i):
        return i * i


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig) -> int:
    if cfg.a == 1 and cfg.c == 2:
        os.kill(os.getpid(), signal.SIGSEGV)
    if cfg.a == 2:
        raise ValueError("a=2 is refused on purpose")
    seen = []
    if cfg.loader:
        from torch.utils.data import DataLoader

        seen = [int(x) for batch in DataLoader(Squares(), batch_size=2, num_workers=0) for x in batch]
    print(
        json.dumps(
            {
                "config": OmegaConf.to_container(cfg),
                "start_method": multiprocessing.get_start_method(allow_none=True),
                "cwd": os.getcwd(),
                "batches": len(seen) // 2,
            }
        )
    )
    return cfg.a + cfg.c


if __name__ == "__main__":
    main()
