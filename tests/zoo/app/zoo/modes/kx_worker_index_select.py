"""fork DataLoader, 2 workers: a clip's frame ids run past the feature bank; worker 0's index_select refuses.

The clip annotations were made on the full-length videos, the feature bank was extracted from the trimmed ones
(40 frames). Clip 5's frame ids go up to 47: `torch.index_select(bank, 0, ids)` in worker 0 raises
`IndexError: index out of range in self`; the main re-raises it as `Caught IndexError in DataLoader worker process 0`.
"""

import torch
from torch.utils.data import DataLoader, Dataset

N_FRAMES = 40


class ClipFeatures(Dataset):
    def __init__(self) -> None:
        g = torch.Generator().manual_seed(0)
        self.bank = torch.randn(N_FRAMES, 16, generator=g)
        self.clips = [(4 * i, 4 * i + 8) for i in range(8)]
        self.clips[5] = (39, 47)

    def __len__(self) -> int:
        return len(self.clips)

    def __getitem__(self, i: int) -> torch.Tensor:
        start, end = self.clips[i]
        ids = torch.arange(start, end)
        return torch.index_select(self.bank, 0, ids).mean(0)


def main() -> None:
    loader = DataLoader(ClipFeatures(), batch_size=2, num_workers=2, multiprocessing_context="fork")
    model = torch.nn.Linear(16, 1)
    for step, batch in enumerate(loader):
        loss = model(batch).pow(2).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
