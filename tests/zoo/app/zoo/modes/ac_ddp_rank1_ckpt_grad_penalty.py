"""torchrun, 2 gloo ranks: DDP with gradient accumulation (the first micro-batch of each step under
`model.no_sync()`), the encoder block checkpointed with `use_reentrant=True`; batches marked `adv` add an
input-gradient penalty computed with `torch.autograd.grad`, which reentrant checkpointing refuses. Only rank 1's
shard has such a batch in the first step, so rank 1 fails inside the no_sync block while rank 0 goes on to the
synchronising backward."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.Tanh(), torch.nn.Linear(32, 16))
        self.head = torch.nn.Linear(16, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(checkpoint(self.block, x, use_reentrant=True))


def shard(rank: int) -> list[dict]:
    g = torch.Generator().manual_seed(rank)
    batches = [{"x": torch.randn(8, 16, generator=g), "y": torch.randn(8, 1), "adv": False} for _ in range(6)]
    batches[4]["adv"] = True
    if rank == 1:
        batches[0]["adv"] = True
    return batches


def micro_loss(model: DDP, batch: dict) -> torch.Tensor:
    x = batch["x"].requires_grad_()  # reentrant checkpointing needs an input that requires grad
    loss = torch.nn.functional.mse_loss(model(x), batch["y"])
    if batch["adv"]:
        (gx,) = torch.autograd.grad(loss, x, create_graph=True)
        loss = loss + 0.1 * gx.pow(2).sum()
    return loss


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = shard(rank)
    for step in range(0, len(batches), 2):
        with model.no_sync():
            micro_loss(model, batches[step]).backward()
        micro_loss(model, batches[step + 1]).backward()
        opt.step()
        opt.zero_grad()
        if rank == 0:
            print(f"step {step // 2} done", flush=True)
    dist.destroy_process_group()
