"""torchrun, 2 gloo ranks: a DDP-trained model is calibrated for int8 on each rank's own shard (HistogramObserver,
the x86 default qconfig), then the ranks all-reduce their accuracy. Rank 1's shard holds a sensor dropout (NaN),
so its observer fails before the all-reduce; rank 0 waits in it for rank 1."""

import warnings
from datetime import timedelta

import torch
import torch.ao.quantization as tq
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

warnings.filterwarnings("ignore")


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.quant = tq.QuantStub()
        self.fc = nn.Linear(8, 4)
        self.dequant = tq.DeQuantStub()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dequant(self.fc(self.quant(x)))


def shard(rank: int) -> torch.Tensor:
    x = torch.randn(64, 8, generator=torch.Generator().manual_seed(rank))
    if rank == 1:
        x[17, 5] = float("nan")
    return x


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = Net()
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for _ in range(3):
        loss = ddp(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"rank {rank}: trained; calibrating on the local shard", flush=True)
    torch.backends.quantized.engine = "x86"
    model.eval()
    model.qconfig = tq.get_default_qconfig("x86")
    prepared = tq.prepare(model)
    x = shard(rank)
    with torch.no_grad():
        for i in range(0, len(x), 16):
            prepared(x[i : i + 16])
    quantized = tq.convert(prepared)
    acc = torch.tensor([float(quantized(x[:16]).argmax(dim=1).float().mean())])
    dist.all_reduce(acc)
    print(f"rank {rank}: mean {acc.item() / world_size:.3f}")
    dist.destroy_process_group()
