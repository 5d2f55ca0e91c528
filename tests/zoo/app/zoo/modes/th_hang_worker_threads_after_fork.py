"""The loader's workers are forked after the main has trained a few steps (torch's OpenMP pool running); to
decode faster each worker's `worker_init_fn` gives itself 2 intra-op threads again, undoing the DataLoader's
one-thread default. The first parallel op in a worker waits for an OpenMP pool that did not survive the fork;
both workers hang, and the main waits for batch 0 for ever (no DataLoader timeout).
"""

import torch
from torch.utils.data import DataLoader, Dataset


class Spectrograms(Dataset):
    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        wave = torch.randn(256, 512)
        return torch.tanh(wave).abs().mean(0)


def more_threads(worker_id: int) -> None:
    torch.set_num_threads(2)


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(512, 10)
    for step in range(3):
        loss = model(torch.tanh(torch.randn(256, 512))).pow(2).mean()
        loss.backward()
        print(f"warm-up step {step}: loss {float(loss):.4f}", flush=True)
    loader = DataLoader(Spectrograms(), batch_size=4, num_workers=2, worker_init_fn=more_threads)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)}", flush=True)
