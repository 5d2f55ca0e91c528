"""The SWA model's BatchNorm statistics are recomputed in a child process (fork) that sends them back on a
queue; the loader yields dicts, `update_bn` hands each dict to the model, and the child dies of the
TypeError; the main waits on `queue.get()` with no timeout, for ever."""

import multiprocessing as mp

import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, update_bn


def recompute_bn(swa_model: AveragedModel, loader: list, queue) -> None:
    update_bn(loader, swa_model)
    queue.put({k: v.clone() for k, v in swa_model.state_dict().items() if "running" in k})


def main() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
    swa_model = AveragedModel(model)
    swa_model.update_parameters(model)
    loader = [{"x": torch.randn(16, 4), "y": torch.randn(16, 1)} for _ in range(4)]
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=recompute_bn, args=(swa_model, loader, queue))
    child.start()
    print("recomputing BN statistics in a child", flush=True)
    stats = queue.get()
    child.join()
    swa_model.load_state_dict(stats, strict=False)
    print("done")
