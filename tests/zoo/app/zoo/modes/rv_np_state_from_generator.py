"""The data pipeline moved to numpy's Generator API (`np.random.default_rng`) and the checkpoint now keeps
`rng.bit_generator.state`; the augmentation code still draws from the legacy global `np.random`, and the resume
hands the saved state to `np.random.set_state`."""

import os
import tempfile

import numpy as np
import torch


def save(path: str, step: int, rng: np.random.Generator) -> None:
    torch.save({"step": step, "numpy": rng.bit_generator.state}, path)


def restore(path: str) -> int:
    state = torch.load(path, weights_only=False)
    np.random.set_state(state["numpy"])
    return state["step"]


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="rv-"), "last.pt")
    rng = np.random.default_rng(0)
    crops = rng.integers(0, 32, size=(4, 2))
    save(path, 120, rng)
    print(f"saved step 120 after crops {crops.tolist()}", flush=True)
    step = restore(path)
    print(f"resumed at step {step}: flip {np.random.rand() < 0.5}", flush=True)
