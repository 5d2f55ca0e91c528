"""The generator's EMA kept with torch.optim.swa_utils.AveragedModel and saved as its state_dict; the sampling
script loads that file into a plain Generator, whose keys carry no `module.` prefix and no `n_averaged`."""

import os
import tempfile

import torch
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn


class Generator(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.Tanh())

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.net(z)


def train(path: str) -> None:
    gen = Generator()
    ema = AveragedModel(gen, multi_avg_fn=get_ema_multi_avg_fn(0.999))
    opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
    for _step in range(5):
        loss = gen(torch.randn(8, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update_parameters(gen)
    torch.save(ema.state_dict(), path)
    print(f"saved the EMA generator after {_step + 1} steps", flush=True)


def sample(path: str) -> torch.Tensor:
    gen = Generator()
    gen.load_state_dict(torch.load(path))
    return gen(torch.randn(4, 16))


def main() -> None:
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "ema_g.pt")
    train(path)
    print(f"samples {tuple(sample(path).shape)}", flush=True)
