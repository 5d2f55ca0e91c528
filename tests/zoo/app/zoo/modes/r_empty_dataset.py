"""A dataset that globs a folder with the wrong extension finds nothing: the shuffling DataLoader refuses it."""

import glob
import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class ImageFolderish(Dataset):
    def __init__(self, root: str):
        self.files = sorted(glob.glob(os.path.join(root, "*.jpg")))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.zeros(3)


def make_loader(root: str) -> DataLoader:
    return DataLoader(ImageFolderish(root), batch_size=4, shuffle=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as root:
        for i in range(3):
            open(os.path.join(root, f"img{i}.png"), "w").close()  # the images are .png, the glob wants .jpg
        for _batch in make_loader(root):
            pass
