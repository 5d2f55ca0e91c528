"""Saliency-guided cropping in the dataset, in 2 DataLoader workers: each sample's crop is centred on where a
frozen teacher's features are most sensitive, found with a tensor hook on the features; the teacher's forward
is wrapped in `torch.no_grad()` (it is frozen), so its features do not require grad and `register_hook`
refuses them."""

import torch
from torch.utils.data import DataLoader, Dataset


class SaliencyCrops(Dataset):
    def __init__(self, n: int):
        self.n = n
        self.teacher = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU())
        self.teacher.requires_grad_(False)

    def __len__(self) -> int:
        return self.n

    def saliency(self, img: torch.Tensor) -> torch.Tensor:
        grads = {}
        with torch.no_grad():  # the teacher is frozen
            feat = self.teacher(img[None])
        feat.register_hook(lambda g: grads.setdefault("feat", g))
        feat.pow(2).sum().backward()
        return grads["feat"].abs().sum(dim=(0, 1))

    def __getitem__(self, i: int):
        g = torch.Generator().manual_seed(i)
        img = torch.rand(3, 32, 32, generator=g)
        sal = self.saliency(img)
        y, x = divmod(int(sal.argmax()), 32)
        y, x = min(max(y - 8, 0), 16), min(max(x - 8, 0), 16)
        return img[:, y : y + 16, x : x + 16], i % 4


def main() -> None:
    loader = DataLoader(SaliencyCrops(64), batch_size=8, num_workers=2)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 16 * 16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print("training on saliency crops", flush=True)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
