"""A training script whose DataLoader keeps its workers: `persistent_workers=True` written in its code,
as apps that train for many epochs write it. Nothing crashmatrix-specific.

Its workers start once, on the first epoch's `iter(loader)`, and serve every epoch after: only the
first epoch waits for them. With spawn that wait is two fresh interpreters importing torch."""

import torch
from torch.utils.data import DataLoader, Dataset

EPOCHS = 6


class Digits(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return torch.randn(64), i % 10


def main():
    model = torch.nn.Linear(64, 10)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(Digits(), batch_size=4, num_workers=2, persistent_workers=True)
    for _epoch in range(EPOCHS):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(f"done: {EPOCHS} epochs, loss {float(loss):.3f}")


if __name__ == "__main__":
    main()
