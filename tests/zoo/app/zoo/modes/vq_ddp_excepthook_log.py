"""torchrun, 2 gloo ranks, each logging in its own timestamped format with its own sys.excepthook.

After init_process_group each rank replaces sys.excepthook with one that logs the uncaught exception through
the program's logger (`... | rank1 | CRITICAL | vq.ddp:NN - uncaught exception` then the traceback), as
training templates do. Rank 1's batch sampler hands it a label index one past its table at step 2: torch.gather
refuses it; rank 0 waits in that step's all_reduce.
"""

import logging
import sys

import torch
import torch.distributed as dist

log = logging.getLogger("vq.ddp")


def install_logging(rank: int) -> None:
    fmt = f"%(asctime)s | rank{rank} | %(levelname)-8s | %(name)s:%(lineno)d - %(message)s"
    logging.basicConfig(level=logging.INFO, format=fmt, stream=sys.stderr)

    def hook(exc_type, exc, tb) -> None:
        log.critical("uncaught exception", exc_info=(exc_type, exc, tb))

    sys.excepthook = hook


def pick_logits(logits: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    return torch.gather(logits, 1, index.unsqueeze(1)).squeeze(1)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    install_logging(rank)
    model = torch.nn.Linear(8, 6)
    g = torch.Generator().manual_seed(rank)
    for step in range(5):
        x = torch.randn(16, 8, generator=g)
        index = torch.randint(0, 6, (16,), generator=g)
        if rank == 1 and step == 2:
            index[5] = 6  # the sampler's off-by-one on its last shard
        loss = -pick_logits(model(x).log_softmax(1), index).mean()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()
