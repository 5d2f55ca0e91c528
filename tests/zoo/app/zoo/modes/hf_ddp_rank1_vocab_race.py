"""torchrun, 2 gloo ranks: rank 0 builds the word vocabulary from the corpus and writes vocab.txt to the shared
cache, the other ranks read it; no barrier between (the job that used to run on one process, where the main
process does it first, as `main_process_first` would). Rank 1 opens the file before rank 0 has written it."""

import os
from collections import Counter
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

WORDS = "the a model film story plot actor scene music ending was good bad slow fast funny dull long".split()


def corpus(n: int) -> list[str]:
    g = torch.Generator().manual_seed(0)
    idx = torch.randint(len(WORDS), (n, 12), generator=g).tolist()
    return [" ".join(WORDS[i] for i in row) for row in idx]


def build_vocab(lines: list[str], path: str) -> None:
    counts = Counter(w for line in lines for w in line.split())
    with open(path, "w") as f:
        f.write("\n".join(["[PAD]", "[UNK]"] + [w for w, _ in counts.most_common()]) + "\n")


def load_vocab(path: str) -> dict[str, int]:
    with open(path) as f:
        return {w.strip(): i for i, w in enumerate(f)}


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    cache = f"/tmp/hf_ddp_vocab_{os.getppid()}"
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, "vocab.txt")
    lines = corpus(40000)
    if rank == 0:
        build_vocab(lines, path)
    vocab = load_vocab(path)
    print(f"rank {rank}: vocab {len(vocab)} words", flush=True)
    model = DDP(torch.nn.EmbeddingBag(len(vocab), 8))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _step in range(3):
        ids = torch.tensor([[vocab.get(w, 1) for w in line.split()] for line in lines[rank::2][:16]])
        model(ids).pow(2).mean().backward()
        opt.step()
        opt.zero_grad()
    dist.destroy_process_group()
