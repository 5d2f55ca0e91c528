"""A detection dataset logs, from its 2 DataLoader workers, each image that has no boxes; the message names the
image's index and its file, but the call passes the index only. logging reports the bad call on stderr
(`--- Logging error ---`, from the worker) and goes on: the run trains to its end."""

import logging
import sys

import torch
from torch.utils.data import DataLoader, Dataset

log = logging.getLogger("lg_boxes")


class Boxes(Dataset):
    def __init__(self, n: int) -> None:
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, 16, 16, generator=g)
        self.counts = torch.randint(0, 4, (n,), generator=g)
        self.files = [f"img_{i:04d}.png" for i in range(n)]

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int):
        n = int(self.counts[i])
        if n == 0:
            log.warning("image %d has no boxes (%s)", i)
        return self.images[i], n


def main() -> None:
    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(processName)s %(message)s")
    loader = DataLoader(Boxes(24), batch_size=6, num_workers=2)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 16 * 16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.001)
    for epoch in range(2):
        for x, n in loader:
            loss = (model(x).squeeze(1) - n.float()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d loss %.4f", epoch, loss.item())
    print("done")
