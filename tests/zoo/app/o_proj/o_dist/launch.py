"""The single-node launcher without torchrun: `python -m o_dist.launch case=NAME` spawns one process per rank
with torch.multiprocessing and sets the group up from a shared file (`init_file`)."""

import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from o_dist import config
from o_dist.dist import gather_metrics
from o_dist.model import Net, batch

WORLD = 2


def worker(rank: int, cfg: dict, world: int) -> None:
    dist.init_process_group("gloo", init_method=f"file://{cfg['init_file']}", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    for step in range(cfg["steps"]):
        x, y = batch(step, rank, cfg["batch_size"])
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
    if cfg["case"] == "o_hang_gather_rank0" and rank == 0:
        print("gathering metrics for the log", flush=True)
        print(gather_metrics({"loss": loss.item()}), flush=True)
    dist.barrier()  # the end of the epoch
    if rank == 0:
        print("done", flush=True)
    dist.destroy_process_group()


def main() -> None:
    cfg = config.parse()
    if cfg["case"] == "o_hang_filestore_leftover":
        cfg["init_file"] = "/tmp/o_dist_shared.init"  # the preset shared by the node's jobs
    cfg["init_file"] = cfg["init_file"] or f"/tmp/o_dist_{os.getpid()}.init"
    if cfg["case"] == "o_spawn_args_dict":
        mp.spawn(worker, args=(cfg), nprocs=WORLD)  # meant as a 2-tuple (cfg, WORLD)
        return
    if cfg["case"] == "o_hang_filestore_leftover" and not os.path.exists(cfg["init_file"]):
        # the previous job on this node was killed while writing its rendezvous file, which stayed behind
        store = dist.FileStore(cfg["init_file"], WORLD)
        store.set("run_meta", "x" * 256)
        del store
        os.truncate(cfg["init_file"], os.path.getsize(cfg["init_file"]) // 2)
    mp.spawn(worker, args=(cfg, WORLD), nprocs=WORLD)


if __name__ == "__main__":
    main()
