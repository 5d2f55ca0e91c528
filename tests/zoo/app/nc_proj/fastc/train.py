"""The training cases, one per --case."""

import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from fastc.decode import Decoder, ShardDataset, write_shards
from fastc.native import load

CLASSES = 10


def freed_out() -> None:
    decoder = Decoder()
    raw = np.random.randint(0, 256, size=4096, dtype=np.uint8)
    print("decoding the first frame", flush=True)
    n = decoder.decode(raw)
    print(f"decoded {n}", flush=True)


def label_dtype() -> None:
    lib = load()
    labels = np.array([(3 * i) % CLASSES or 1 for i in range(16)], dtype=np.int32)  # read from the sheet as int32
    targets = torch.empty(16, dtype=torch.int64)
    lib.fastc_copy_labels(labels.ctypes.data, targets.data_ptr(), 16)
    model = torch.nn.Linear(8, CLASSES)
    loss = F.cross_entropy(model(torch.randn(16, 8)), targets)
    print(f"loss {loss.item():.3f}", flush=True)


def scale_argtypes() -> None:
    lib = load()
    x = torch.rand(64)
    lib.fastc_scale(x.data_ptr(), 0.5, x.numel())
    print(f"scaled mean {x.mean().item():.3f}", flush=True)


def worker_null_shard() -> None:
    torch.set_num_threads(1)
    folder = tempfile.mkdtemp(prefix="fastc-shards-")
    paths = write_shards(folder, 8, missing=3)
    loader = DataLoader(ShardDataset(paths), batch_size=1, num_workers=2)
    total = 0.0
    for batch in loader:
        total += float(batch.sum())
    print(f"mean of shards {total / len(paths):.3f}", flush=True)


CASES = {
    "nc_freed_out_buffer": freed_out,
    "nc_label_int32_as_int64": label_dtype,
    "nc_scale_no_argtypes": scale_argtypes,
    "nc_worker_null_shard": worker_null_shard,
}
