"""spawn DataLoader, 1 worker: sliding windows made with torch.as_strided over a recording shorter than assumed.

Each recording is cut into 8 overlapping windows of 400 samples, hop 160, with `torch.as_strided` (no copy);
the window count is fixed, not computed from the length. Recording 1 is 1200 samples (the others 2000):
8 windows need 1520, so torch refuses the view in the worker (batch 0): `RuntimeError: setStorage: sizes [8, 400], strides
[160, 1], storage offset 0, and itemsize 4 requiring a storage size of 6080 are out of bounds for storage of size
4800`; the main re-raises it.
"""

import torch
from torch.utils.data import DataLoader, Dataset

WIN, HOP, N_WIN = 400, 160, 8


class Recordings(Dataset):
    def __init__(self) -> None:
        g = torch.Generator().manual_seed(0)
        self.audio = [torch.randn(1200 if i == 1 else 2000, generator=g) for i in range(8)]

    def __len__(self) -> int:
        return len(self.audio)

    def __getitem__(self, i: int) -> torch.Tensor:
        wav = self.audio[i]
        frames = torch.as_strided(wav, size=(N_WIN, WIN), stride=(HOP, 1))
        return torch.fft.rfft(frames * torch.hann_window(WIN)).abs().mean(0)


def main() -> None:
    loader = DataLoader(Recordings(), batch_size=2, num_workers=1, multiprocessing_context="spawn")
    model = torch.nn.Linear(WIN // 2 + 1, 1)
    for step, batch in enumerate(loader):
        loss = model(batch).pow(2).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
