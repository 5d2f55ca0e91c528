"""A vocabulary built by main() into a module global, then an encoding child started with the spawn method: the
child imports this module afresh and never runs main(), so its VOCAB is still None."""

import multiprocessing as mp

import torch

VOCAB = None


def encode_shard(lines: list[str], out) -> None:
    ids = [torch.tensor([VOCAB[w] for w in line.split()]) for line in lines]
    out.put(sum(len(t) for t in ids))


def main() -> None:
    global VOCAB
    lines = ["the cat sat", "a dog ran far", "the dog sat"]
    VOCAB = {w: i for i, w in enumerate(sorted({w for line in lines for w in line.split()}))}
    print(f"vocab {len(VOCAB)} words", flush=True)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    child = ctx.Process(target=encode_shard, args=(lines, out))
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"encoder child failed with exit code {child.exitcode}")
    print(f"{out.get()} tokens", flush=True)
