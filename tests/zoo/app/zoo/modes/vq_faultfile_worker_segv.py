"""Fork DataLoader workers whose faulthandler writes to a file the program chose; a worker dies by SIGSEGV.

The program logs with its own timestamped format; each worker's worker_init_fn points faulthandler at
$TMPDIR/fault-worker<N>.log (so the crash trace is in that file, not on stderr). The records are read from a
packed buffer through ctypes at offsets from an index; the index entry of record 13 is corrupt (an offset far
past the buffer), and the worker that reads it dies by SIGSEGV in the copy.
"""

import ctypes
import faulthandler
import logging
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

log = logging.getLogger("vq.loader")
FAULT_FILES = []


def open_fault_log(worker_id: int) -> None:
    path = os.path.join(tempfile.gettempdir(), f"fault-worker{worker_id}.log")
    f = open(path, "w")
    FAULT_FILES.append(f)
    faulthandler.enable(file=f, all_threads=True)
    log.info("worker %d: fault log %s", worker_id, path)


class Packed(Dataset):
    def __init__(self, n: int = 40, dim: int = 16) -> None:
        self.buf = np.arange(n * dim, dtype=np.float32)
        self.dim = dim
        self.index = [i * dim * 4 for i in range(n)]
        self.index[13] = 1 << 46  # a corrupt index entry

    def __len__(self) -> int:
        return len(self.index)

    def read_record(self, i: int) -> bytes:
        addr = self.buf.ctypes.data + self.index[i]
        return ctypes.string_at(addr, self.dim * 4)

    def __getitem__(self, i: int):
        raw = self.read_record(i)
        x = torch.frombuffer(bytearray(raw), dtype=torch.float32)
        return x, i % 4


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s.%(msecs)03d %(levelname)-5s [%(name)s] %(message)s")
    loader = DataLoader(
        Packed(), batch_size=4, num_workers=2, multiprocessing_context="fork", worker_init_fn=open_fault_log
    )
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())
