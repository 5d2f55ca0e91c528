"""Evaluation runs in a child under the job's data limit (`prlimit --data=1 GiB python THIS --eval FILE`, as the
training script launches it) so a bad evaluation cannot take the trainer down. The confusion matrix is sized
from the largest label, and the labels keep 65535 as "ignore": 65536 x 65536 int64 (32 GiB) is refused in the
child, numpy's `_ArrayMemoryError`; the trainer's `subprocess.run(check=True)` then raises CalledProcessError."""

import os
import subprocess
import sys
import tempfile

import numpy as np


def confusion(path: str) -> np.ndarray:
    data = np.load(path)
    labels, preds = data[0], data[1]
    n = int(max(labels.max(), preds.max())) + 1
    cm = np.zeros((n, n), dtype=np.int64)
    np.add.at(cm, (labels, preds), 1)
    return cm


def evaluate(path: str) -> None:
    cm = confusion(path)
    print(f"accuracy {np.trace(cm) / cm.sum():.3f}", flush=True)


def main() -> None:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 10, 512).astype(np.uint16)
    labels[::50] = 65535
    preds = rng.integers(0, 10, 512).astype(np.uint16)
    path = os.path.join(tempfile.mkdtemp(prefix="om_eval_"), "epoch0.npy")
    np.save(path, np.stack([labels, preds]))
    print("epoch 0 trained; evaluating in a child", flush=True)
    cmd = ["prlimit", f"--data={1 << 30}", sys.executable, __file__, "--eval", path]
    subprocess.run(cmd, check=True)
    print("evaluated", flush=True)


if __name__ == "__main__" and sys.argv[1:2] == ["--eval"]:
    evaluate(sys.argv[2])
