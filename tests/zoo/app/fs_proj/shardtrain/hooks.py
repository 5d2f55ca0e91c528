"""DDP communication hooks from the config: gradient compression, and a hook that logs the gradient norm."""

import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks


def norm_logging_hook(state: dict, bucket: dist.GradBucket) -> torch.futures.Future[torch.Tensor]:
    state.setdefault("norms", []).append(bucket.buffer().norm().item())
    fut = dist.all_reduce(bucket.buffer(), async_op=True).get_future()
    return fut.then(lambda f: f.value()[0].div_(dist.get_world_size()))


def register(ddp: torch.nn.parallel.DistributedDataParallel, cfg: dict) -> dict:
    state: dict = {}
    if cfg.get("compress") == "fp16":
        ddp.register_comm_hook(dist.group.WORLD, default_hooks.fp16_compress_hook)
    if cfg.get("log_grad_norm"):
        ddp.register_comm_hook(state, norm_logging_hook)
    return state
