"""torchrun, 2 gloo ranks: rank 1's JSON-lines shard holds one record nested 200000 deep, and the program had
raised the recursion limit to 10**6 (for its own recursive flattening of nested annotations). json's C scanner
recurses once per level within that limit and overflows the C stack: rank 1 dies by SIGSEGV in json.loads while
rank 0 waits in its next all_reduce.
"""

import json
import os
import sys
import tempfile

import torch
import torch.distributed as dist


def flatten(node, out):
    if isinstance(node, list):
        for child in node:
            flatten(child, out)
    elif node is not None:
        out.append(float(node))
    return out


def write_shard(path: str, rank: int) -> None:
    with open(path, "w") as f:
        for i in range(16):
            if rank == 1 and i == 6:
                f.write("[" * 200_000 + "]" * 200_000 + "\n")  # a parse tree exported without a depth cap
            else:
                f.write(json.dumps([[i, [i + 1, i + 2]], [i + 3]]) + "\n")


def run(rank: int, world_size: int) -> None:
    sys.setrecursionlimit(10**6)  # deep annotation trees
    dist.init_process_group("gloo")
    path = os.path.join(tempfile.mkdtemp(prefix=f"jq-shard{rank}-"), "annotations.jsonl")
    write_shard(path, rank)
    model = torch.nn.Linear(4, 1)
    with open(path) as f:
        for step, line in enumerate(f):
            values = flatten(json.loads(line), [])
            x = torch.tensor(values[:4] + [0.0] * (4 - len(values[:4])))
            loss = model(x).pow(2).mean()
            model.zero_grad()
            loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad)
            print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
