"""The training loop: a small classifier of synthetic 16-feature records, 2 epochs of 4 steps. Each case is one
setting of how strict the run is."""

import os

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from warnkit.filters import strict_numerics, strict_warnings
from warnkit.logs import log, setup_logging, warnings_to_log

CASES = {
    # warnings are errors; the loader's workers sized by a rule of thumb, twice the machine's CPUs
    "wn_loader_max_workers": {"strict_warnings": True, "workers": "2x"},
    # numpy errors raise; the features squashed with a hand-written sigmoid over raw (unscaled) values
    "wn_np_sigmoid_overflow": {"strict_numerics": True},
    # the log's handler raises on a broken line; the epoch line has one argument fewer than its format
    "wn_log_strict_handler": {"strict_log": True},
    # warnings sent to the log by a showwarning of the old signature; the old clip_grad_norm warns
    "wn_showwarning_signature": {"warnings_to_log": True, "clip": "old"},
}

EPOCHS, STEPS, BATCH = 2, 4, 8


def raw_features(n: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = rng.normal(0.0, 1.0, size=(n, 16)).astype(np.float32)
    x[:, 3] *= 150.0  # a duration in seconds, not scaled
    return x


def sigmoid_features(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def make_data(case: dict) -> TensorDataset:
    x = raw_features(EPOCHS * STEPS * BATCH)
    if case.get("strict_numerics"):
        x = sigmoid_features(x)
    y = (x[:, 0] > x[:, 1]).astype(np.int64)
    return TensorDataset(torch.from_numpy(np.ascontiguousarray(x)), torch.from_numpy(y))


def loader_workers(case: dict) -> int:
    return 2 * (os.cpu_count() or 1) if case.get("workers") == "2x" else 0


def run(name: str) -> None:
    case = CASES[name]
    if case.get("strict_warnings"):
        strict_warnings()
    if case.get("strict_numerics"):
        strict_numerics()
    setup_logging(strict=bool(case.get("strict_log")))
    if case.get("warnings_to_log"):
        warnings_to_log()
    torch.manual_seed(0)
    data = make_data(case)
    loader = DataLoader(data, batch_size=BATCH, shuffle=True, num_workers=loader_workers(case))
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(EPOCHS):
        total = 0.0
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            if case.get("clip") == "old":
                nn.utils.clip_grad_norm(model.parameters(), 1.0)
            else:
                nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total += loss.item()
        lr = opt.param_groups[0]["lr"]
        if case.get("strict_log"):
            log.info("epoch %d loss %.4f lr %g", epoch, total / STEPS)
        else:
            log.info("epoch %d loss %.4f lr %g", epoch, total / STEPS, lr)
    print("done", flush=True)
