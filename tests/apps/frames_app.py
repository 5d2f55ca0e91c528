"""An unmodified torch training script for the forensics tests: `mode=hang` or `mode=segv_libc`.

hang: the DataLoader worker (num_workers=1) blocks in the user's own read_frame (video.py);
segv_libc: a segfault inside libc (strlen on an invalid pointer, through ctypes).
"""

import ctypes
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
    mode = dict(a.split("=", 1) for a in sys.argv[1:])["mode"]
    print("training", mode, flush=True)
    if mode == "segv_libc":
        ctypes.CDLL("libc.so.6").strlen(ctypes.c_void_p(8))
    for batch in DataLoader(Frames(), batch_size=1, num_workers=1):
        print(batch)
