"""RNG states saved beside the weights, restored on resume."""

import random

import numpy as np
import torch


def capture() -> tuple:
    return (random.getstate(), np.random.get_state(), torch.get_rng_state())


def restore(states: tuple) -> None:
    np_state, py_state, torch_state = states
    np.random.set_state(np_state)
    random.setstate(py_state)
    torch.set_rng_state(torch_state)


def capture_dict() -> dict:
    return {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}


def restore_dict(states: dict) -> None:
    random.setstate(states["python"])
    np.random.set_state(states["numpy"])
    torch.set_rng_state(states["torch"])
