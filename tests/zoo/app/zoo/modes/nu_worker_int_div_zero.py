"""8 frames sampled evenly from each clip by integer timestamps (ms), in 2 DataLoader workers: the stride is
`duration // (n_frames - 1)`, and one clip lasts 5 ms, so the stride is 0 and the frame index divides by it."""

import torch
from torch.utils.data import DataLoader, Dataset

N_FRAMES = 8


class Clips(Dataset):
    def __init__(self) -> None:
        self.durations = [400 + 40 * i for i in range(24)]
        self.durations[9] = 5

    def __len__(self) -> int:
        return len(self.durations)

    def __getitem__(self, i: int) -> torch.Tensor:
        stamps = torch.arange(0, self.durations[i], dtype=torch.int64)
        stride = (stamps[-1] - stamps[0]) // (N_FRAMES - 1)
        index = torch.clamp((stamps - stamps[0]) // stride, max=N_FRAMES - 1)
        return torch.bincount(index, minlength=N_FRAMES)


def main() -> None:
    loader = DataLoader(Clips(), batch_size=4, num_workers=2)
    for step, counts in enumerate(loader):
        print(f"batch {step} frames per bin {counts[0].tolist()}", flush=True)
