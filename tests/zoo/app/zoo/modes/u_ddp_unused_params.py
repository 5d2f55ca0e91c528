"""torchrun, 2 gloo ranks: a DDP model with an auxiliary head that forward() uses only when asked (never, here),
wrapped with the default find_unused_parameters=False. The first step's reduction never finishes (the head's
parameters get no gradient); the second forward raises on both ranks."""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoHeads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(8, 16)
        self.main_head = torch.nn.Linear(16, 2)
        self.aux_head = torch.nn.Linear(16, 4)

    def forward(self, x, with_aux: bool = False):
        h = torch.relu(self.body(x))
        return (self.main_head(h), self.aux_head(h)) if with_aux else self.main_head(h)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(rank)
    model = DDP(TwoHeads())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        x, y = torch.randn(4, 8), torch.randint(0, 2, (4,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.3f}")
    dist.destroy_process_group()
