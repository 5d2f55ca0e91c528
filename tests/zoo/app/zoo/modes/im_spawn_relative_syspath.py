"""The run's folder holds its own copy of the feature code (`features/`), put on sys.path by a relative entry
(`sys.path.insert(0, "features")`) from the folder the run was started in; the program then changes into its output
folder (as Hydra's runs do) and starts 2 ranks with torch.multiprocessing.spawn. Each spawned child gets the
parent's sys.path, relative entry included, resolved against the new working directory, and cannot unpickle the
function's argument: `ModuleNotFoundError: No module named 'im_featurizer'`; mp.spawn then reports the child's exit."""

import os
import sys
import tempfile
from pathlib import Path

import torch
import torch.multiprocessing as mp

FEATURIZER = '''"""This run's copy of the featurizer."""
import torch


class Featurizer:
    def __init__(self, dim):
        self.dim = dim

    def __call__(self, n):
        return torch.randn(n, self.dim)
'''


def worker(rank: int, featurizer) -> None:
    print(f"rank {rank}: {tuple(featurizer(4).shape)}")


def main() -> None:
    run = Path(tempfile.mkdtemp(prefix="im_run_"))
    (run / "features").mkdir()
    (run / "features" / "im_featurizer.py").write_text(FEATURIZER)
    os.chdir(run)
    sys.path.insert(0, "features")
    from im_featurizer import Featurizer

    (run / "outputs").mkdir()
    os.chdir(run / "outputs")  # the run's outputs go here, as Hydra's chdir would put them
    print(f"starting 2 workers in {os.getcwd()}", flush=True)
    torch.manual_seed(0)
    mp.spawn(worker, args=(Featurizer(8),), nprocs=2)
