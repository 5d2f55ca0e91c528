"""Class statistics computed in a `multiprocessing` child (fork) that makes every numpy floating-point problem an
error (`np.seterr(all="raise")`); the second moments of float32 features with one unscaled column (byte counts
near 1e20) overflow in `np.square`. The child dies of FloatingPointError (exit 1); the main checks its exit code."""

import multiprocessing as mp

import numpy as np


def class_stats(path: str) -> None:
    np.seterr(all="raise")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 8)).astype(np.float32)
    x[:, 5] = rng.uniform(1e19, 1e20, size=256).astype(np.float32)  # bytes, not scaled
    mean = x.mean(axis=0)
    second = np.square(x).mean(axis=0)
    np.savez(path, mean=mean, var=second - mean**2)


def main() -> None:
    print("computing class statistics in a child", flush=True)
    child = mp.get_context("fork").Process(target=class_stats, args=("/tmp/wn_stats.npz",), name="stats")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"statistics child failed with exit code {child.exitcode}")
    print("statistics ready", flush=True)
