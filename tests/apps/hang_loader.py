"""A training script whose DataLoader worker hangs in the user's own read_frame (video.py)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
from torch.utils.data import DataLoader, Dataset  # noqa: E402

from video import read_frame  # noqa: E402


class Frames(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.as_tensor(read_frame(i))


if __name__ == "__main__":
    print("training", flush=True)
    for batch in DataLoader(Frames(), batch_size=1, num_workers=1):
        print(batch)
