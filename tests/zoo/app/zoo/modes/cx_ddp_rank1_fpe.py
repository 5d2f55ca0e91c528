"""torchrun, 2 gloo ranks: each rank normalises its loss by the labelled tokens per sentence, computed by the
program's own C helper (gcc at run time, ctypes) as a C integer division; rank 1's shard has no labelled sentence
at step 1, and the division by zero kills rank 1 with SIGFPE while rank 0 waits in the all_reduce."""

import ctypes
import os
import subprocess
import tempfile

import torch
import torch.distributed as dist

SOURCE = r"""
long per_sentence(long tokens, long sentences) {
    return tokens / sentences;
}
"""


def build_helper() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="cxnorm-")
    src, lib = os.path.join(folder, "norm.c"), os.path.join(folder, "libnorm.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    helper = ctypes.CDLL(lib)
    helper.per_sentence.argtypes = [ctypes.c_long, ctypes.c_long]
    helper.per_sentence.restype = ctypes.c_long
    return helper


def shard(rank: int, step: int) -> tuple[int, int]:
    if rank == 1 and step == 1:
        return 0, 0  # every sentence of this shard's batch unlabelled
    return 100 + 10 * rank, 5


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    helper = build_helper()
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    for step in range(3):
        tokens, sentences = shard(rank, step)
        norm = helper.per_sentence(tokens, sentences)
        loss = model(torch.randn(16, 8)).pow(2).mean() / norm
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
