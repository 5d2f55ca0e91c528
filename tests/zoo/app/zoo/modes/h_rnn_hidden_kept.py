"""An LSTM's hidden state carried from one batch to the next without detach(): the second backward runs through
the first batch's freed graph."""

import torch


def main() -> None:
    torch.set_num_threads(1)
    lstm = torch.nn.LSTM(4, 8, batch_first=True)
    opt = torch.optim.SGD(lstm.parameters(), lr=0.1)
    hidden = None
    for step in range(3):
        out, hidden = lstm(torch.randn(2, 5, 4), hidden)  # hidden keeps the previous batch's graph
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
