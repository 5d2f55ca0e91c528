"""A decode-time budget raised as the program's own BaseException subclass (so that no `except Exception`
of the program swallows it). Raised in a DataLoader worker, it escapes the worker loop, which only catches
Exception: the worker process prints it and exits 1; the main says the worker exited unexpectedly."""

import time

import torch
from torch.utils.data import DataLoader, Dataset


class DecodeBudgetExceeded(BaseException):
    pass


class Clips(Dataset):
    budget_s = 0.05

    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        t0 = time.monotonic()
        time.sleep(0.08 if i == 9 else 0.001)  # clip 9: a long clip, decoded slowly
        if time.monotonic() - t0 > self.budget_s:
            raise DecodeBudgetExceeded(f"clip {i} took over {self.budget_s} s to decode")
        return torch.full((4,), float(i))


def main() -> None:
    for step, x in enumerate(DataLoader(Clips(), batch_size=2, num_workers=2)):
        print(f"step {step} sum {x.sum().item():.0f}", flush=True)
