"""A sequence classifier that builds its LSTM's initial state once, for the configured batch size (8); the
DataLoader's last batch of 20 samples holds 4, and the LSTM refuses the 8-wide state."""

import torch
from torch.utils.data import DataLoader, TensorDataset


class SeqClassifier(torch.nn.Module):
    def __init__(self, batch_size: int, hidden: int = 16):
        super().__init__()
        self.lstm = torch.nn.LSTM(6, hidden, batch_first=True)
        self.head = torch.nn.Linear(hidden, 2)
        self.state = (torch.zeros(1, batch_size, hidden), torch.zeros(1, batch_size, hidden))

    def forward(self, x):
        out, _ = self.lstm(x, self.state)
        return self.head(out[:, -1])


def main() -> None:
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(20, 5, 6), torch.randint(0, 2, (20,)))
    model = SeqClassifier(batch_size=8)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in DataLoader(data, batch_size=8):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
