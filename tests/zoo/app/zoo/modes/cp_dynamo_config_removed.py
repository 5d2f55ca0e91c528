"""A training script written for torch 2.0 turns dynamo's logging up with `torch._dynamo.config.log_level =
logging.INFO`, an option removed since (logging is now TORCH_LOGS or torch._logging.set_logs): the config module
refuses the unknown key."""

import logging

import torch
import torch._dynamo


def main() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    torch._dynamo.config.suppress_errors = False
    torch._dynamo.config.log_level = logging.INFO
    compiled = torch.compile(model, backend="eager")
    for n in (8, 12, 16):
        print(f"batch {n}: {tuple(compiled(torch.randn(n, 16)).shape)}", flush=True)
