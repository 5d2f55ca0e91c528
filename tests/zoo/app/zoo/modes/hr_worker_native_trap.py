"""A Hydra app's DataLoader workers resample each clip with the app's own C++ resize kernel (ctypes); the config's
`audio.interp: 2` (cubic, as the README lists it) is a case the CPU build of the kernel does not have, and its
`default:` branch traps. The worker dies by SIGILL; the main reports it.
"""

import ctypes
import faulthandler
import sys
from dataclasses import dataclass, field
from typing import Any

import hydra
import numpy as np
import torch
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig
from torch.utils.data import DataLoader, Dataset

from zoo import hr_native


@dataclass
class AudioConf:
    clips: int = 16
    length: int = 100
    target_length: int = 64
    interp: int = 2  # 0 nearest, 1 linear, 2 cubic


@dataclass
class AppConf:
    audio: AudioConf = field(default_factory=AudioConf)
    batch_size: int = 4
    num_workers: int = 2
    hydra: Any = field(default_factory=lambda: {"run": {"dir": "${oc.env:TMPDIR,/tmp}/hr_wt/${now:%H-%M-%S-%f}"}})


class Clips(Dataset):
    def __init__(self, clips: int, length: int, target_length: int, interp: int) -> None:
        self.clips, self.length, self.target_length, self.interp = clips, length, target_length, interp
        self.lib = None

    def __len__(self) -> int:
        return self.clips

    def resample(self, x: np.ndarray) -> np.ndarray:
        if self.lib is None:
            self.lib = hr_native.load()
        out = np.empty(self.target_length, dtype=np.float32)
        fp = ctypes.POINTER(ctypes.c_float)
        self.lib.hr_resize(x.ctypes.data_as(fp), len(x), out.ctypes.data_as(fp), len(out), self.interp)
        return out

    def __getitem__(self, i: int) -> torch.Tensor:
        x = np.sin(np.linspace(0, 1 + i, self.length, dtype=np.float32))
        return torch.from_numpy(self.resample(x))


def task(cfg: DictConfig) -> None:
    a = cfg.audio
    loader = DataLoader(
        Clips(a.clips, a.length, a.target_length, a.interp), batch_size=cfg.batch_size, num_workers=cfg.num_workers
    )
    total = 0.0
    for batch in loader:
        total += float(batch.sum())
    print(f"resampled {a.clips} clips, sum {total:.3f}", flush=True)


def main() -> None:
    faulthandler.enable()
    hr_native.load()
    ConfigStore.instance().store(name="hr_wt_app", node=AppConf)
    sys.argv = [sys.argv[0]]
    hydra.main(config_path=None, config_name="hr_wt_app", version_base="1.3")(task)()
