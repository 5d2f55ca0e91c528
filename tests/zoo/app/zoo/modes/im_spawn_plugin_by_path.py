"""An augmentation plugin loaded from a file path (importlib's spec_from_file_location, as a config names it), its
function handed to a Dataset read by 2 DataLoader workers under the `spawn` start method. The module exists only in
the parent's sys.modules; each spawned worker, unpickling the dataset, looks for `augment_ops` on its path and
fails: `ModuleNotFoundError: No module named 'augment_ops'`; the main then reports the workers gone."""

import importlib.util
import sys
import tempfile
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset

PLUGIN = '''"""The run's augmentation plugin, written by the experiment's config."""
import torch


def jitter(x):
    return x + 0.01 * torch.randn_like(x)
'''


def load_plugin(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


class Augmented(Dataset):
    def __init__(self, n: int, transform) -> None:
        self.x = torch.randn(n, 8)
        self.transform = transform

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i):
        return self.transform(self.x[i]), i % 4


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="im_plugins_"))
    (folder / "augment_ops.py").write_text(PLUGIN)
    ops = load_plugin(folder / "augment_ops.py")
    print(f"plugin {ops.__name__} from {folder}", flush=True)
    loader = DataLoader(Augmented(64, ops.jitter), batch_size=16, num_workers=2, multiprocessing_context="spawn")
    for step, (x, _y) in enumerate(loader):
        print(f"step {step} mean {x.mean().item():.4f}")
