"""The cases `train.py --case NAME` runs: each a trainer and a parameter server, or a loader over the run's store."""

import os
import tempfile
import threading
import time

import torch
import torch.distributed as dist
import torch.distributed.rpc as rpc
from torch.utils.data import DataLoader

from psrv import coord, server
from psrv.data import ShardedSamples
from psrv.launch import spawn, start_rpc


def _segv_rank(rank: int, world_size: int, port: int) -> None:
    start_rpc(rank, world_size, port)
    if rank == 0:
        for shard in range(world_size):
            name = rpc.rpc_sync("ps", server.shard_name, args=(shard,))
            print(f"[trainer] shard {shard}: {name!r}", flush=True)
    rpc.shutdown()


def rpc_callee_segv() -> None:
    spawn(_segv_rank)


def _sparse_grads(ids: torch.Tensor, dim: int) -> tuple:
    uniq = torch.unique(ids)
    grads = torch.ones(len(ids), dim)
    return uniq, grads


def _ps_rank(rank: int, world_size: int, port: int) -> None:
    start_rpc(rank, world_size, port)
    if rank == 0:
        table = rpc.remote("ps", server.EmbeddingServer, args=(64, 8))
        ids = torch.tensor([3, 7, 3, 12, 7, 40])
        uniq, grads = _sparse_grads(ids, 8)
        step = table.rpc_sync().apply(uniq, grads, 0.1)
        print(f"[trainer] step {step}", flush=True)
    rpc.shutdown()


def ps_index_add() -> None:
    spawn(_ps_rank)


def worker_shard_fpe() -> None:
    path = os.path.join(tempfile.mkdtemp(), "run.store")
    store = dist.FileStore(path, -1)
    dist.PrefixStore("run", store).add("data/shards", 4)
    loader = DataLoader(ShardedSamples(path), batch_size=4, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"step {step}: shards {batch[:, 0].tolist()}", flush=True)


def _leader_rank(rank: int, world_size: int, port: int) -> None:
    store = coord.open_store(rank, port)
    size = coord.vocab_ready(store, rank)
    print(f"[rank{rank}] vocabulary of {size}", flush=True)


def hang_leader_cas() -> None:
    spawn(_leader_rank)


STOP = threading.Event()


def stop_serving() -> None:
    STOP.set()


def _serve_rank(rank: int, world_size: int, port: int) -> None:
    start_rpc(rank, world_size, port)
    if rank == 0:
        table = rpc.remote("ps", server.EmbeddingServer, args=(64, 8))
        for step in range(3):
            ids = torch.tensor([step, step + 1])
            table.rpc_sync().apply(ids, torch.ones(2, 8), 0.1)
        print("[trainer] done, shutting down", flush=True)
    else:
        print("[ps] serving until stopped", flush=True)
        while not STOP.is_set():
            time.sleep(0.5)
    rpc.shutdown()


def hang_shutdown_ps_loop() -> None:
    spawn(_serve_rank)


CASES = {
    "rpc_callee_segv": rpc_callee_segv,
    "ps_index_add": ps_index_add,
    "worker_shard_fpe": worker_shard_fpe,
    "hang_leader_cas": hang_leader_cas,
    "hang_shutdown_ps_loop": hang_shutdown_ps_loop,
}
