"""Multi-crop augmentation made in parallel with a multiprocessing.Pool inside the Dataset's __getitem__:
it works with num_workers=0 (the main process may have children); the config asks for 2 DataLoader workers,
which are daemonic processes."""

import multiprocessing as mp

import torch
from torch.utils.data import DataLoader, Dataset


def crop(args: tuple[torch.Tensor, int]) -> torch.Tensor:
    image, k = args
    return image[:, k : k + 24, k : k + 24].clone()


class MultiCrop(Dataset):
    def __init__(self, n: int, crops: int = 4):
        self.n, self.crops = n, crops

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        image = torch.rand(3, 32, 32, generator=torch.Generator().manual_seed(i))
        with mp.Pool(2) as pool:
            views = pool.map(crop, [(image, k) for k in range(self.crops)])
        return torch.stack(views)


def main() -> None:
    num_workers = 2
    print(f"multi-crop loader, {num_workers} workers", flush=True)
    loader = DataLoader(MultiCrop(16), batch_size=4, num_workers=num_workers)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)}", flush=True)
