"""torchrun, 2 gloo ranks, each running its training loop as an asyncio task (`asyncio.run`) and all-reducing
gradients in a thread (`asyncio.to_thread(dist.all_reduce, ...)`). Rank 1 also writes the metrics: its writer
created its `flushed` future on a loop of its own (`asyncio.new_event_loop()` in __init__), and the task awaits
it: `RuntimeError: Task ... got Future ... attached to a different loop` on rank 1; rank 0 waits in the next
all_reduce until rank 1's exit closes the connection."""

import asyncio
import os

import torch
import torch.distributed as dist


class MetricsWriter:
    def __init__(self):
        self.loop = asyncio.new_event_loop()  # its own loop, for a background flusher
        self.flushed = self.loop.create_future()

    async def log(self, step: int, loss: float) -> None:
        self.loop.call_soon_threadsafe(self.flushed.set_result, step)
        await self.flushed


async def fit(rank: int, world_size: int) -> None:
    torch.manual_seed(rank)
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    writer = MetricsWriter() if rank == 1 else None
    for step in range(4):
        x, y = torch.randn(32, 8), torch.randint(0, 2, (32,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            await asyncio.to_thread(dist.all_reduce, p.grad)
            p.grad /= world_size
        opt.step()
        print(f"rank {rank} step {step}: loss {loss.item():.4f}", flush=True)
        if writer is not None and step >= 1:
            await writer.log(step, loss.item())


def run(rank: int, world_size: int) -> None:
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    asyncio.run(fit(rank, world_size))
    dist.destroy_process_group()
