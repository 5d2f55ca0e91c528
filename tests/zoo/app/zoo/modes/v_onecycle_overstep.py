"""OneCycleLR sized from the sample count floor-divided by the batch size (steps_per_epoch = 50 // 16 = 3), while
the DataLoader keeps the last partial batch (4 batches an epoch); the scheduler steps past its total in epoch 2."""

import torch
from torch.utils.data import DataLoader, TensorDataset


def main() -> None:
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(50, 8), torch.randint(0, 2, (50,)))
    loader = DataLoader(data, batch_size=16, shuffle=True)
    model = torch.nn.Linear(8, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    epochs = 3
    steps_per_epoch = len(data) // 16
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=0.1, epochs=epochs, steps_per_epoch=steps_per_epoch
    )
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
            scheduler.step()
        print(f"epoch {epoch} lr {scheduler.get_last_lr()[0]:.4f}")
