"""Coordination through a c10d store: electing the rank that prepares the vocabulary."""

import datetime

import torch.distributed as dist


def open_store(rank: int, port: int) -> dist.TCPStore:
    timeout = datetime.timedelta(minutes=30)
    return dist.TCPStore("127.0.0.1", port, 2, rank == 0, timeout=timeout)


def elect(store: dist.Store, rank: int) -> bool:
    # the first rank to swap "" for its own rank number prepares the vocabulary
    won = store.compare_set("vocab/leader", "", str(rank))
    return won == str(rank)


def vocab_ready(store: dist.Store, rank: int) -> int:
    if elect(store, rank):
        print(f"[rank{rank}] leader: building the vocabulary", flush=True)
        store.set("vocab/size", "512")
        store.set("vocab/ready", "1")
    else:
        print(f"[rank{rank}] waiting for the leader's vocabulary", flush=True)
    store.wait(["vocab/ready"])
    return int(store.get("vocab/size"))
