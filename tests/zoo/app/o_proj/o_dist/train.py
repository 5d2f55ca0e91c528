"""The trainer, one process per rank: `torchrun --nproc-per-node 2 -m o_dist.train case=NAME`."""

import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from o_dist import config
from o_dist.dist import is_main, setup
from o_dist.model import Net, batch


def build(cfg: dict, rank: int) -> tuple[DDP, torch.optim.Optimizer]:
    if cfg["case"] == "o_init_twice":
        setup()  # the trainer's helper sets the group up again
    torch.manual_seed(0)
    net = Net(with_aux=cfg["case"] == "o_static_graph_aux")
    model = DDP(net, static_graph=cfg["case"] == "o_static_graph_aux")
    return model, torch.optim.SGD(model.parameters(), lr=cfg["lr"])


def train_step(model: DDP, opt: torch.optim.Optimizer, step: int, rank: int, cfg: dict) -> float:
    x, y = batch(step, rank, cfg["batch_size"])
    use_aux = cfg["case"] == "o_static_graph_aux" and step % 2 == 1
    loss = F.cross_entropy(model(x, use_aux=use_aux), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    return loss.item()


def evaluate(model: DDP, rank: int, cfg: dict) -> dict:
    if cfg["case"] == "o_monitored_barrier_slow_rank" and rank == 1:
        time.sleep(20)  # rank 1 also scores the full validation set
    dist.monitored_barrier(timeout=timedelta(seconds=cfg["barrier_timeout_s"]))
    return {"rank": rank}


def save(model: DDP, cfg: dict) -> None:
    dcp.save({"model": model.module.state_dict()}, checkpoint_id=cfg["ckpt_dir"])


def resume(cfg: dict) -> Net:
    net = Net(with_aux=True)  # the fine-tune model adds the auxiliary head
    state = {"model": net.state_dict()}
    dcp.load(state, checkpoint_id=cfg["ckpt_dir"])
    net.load_state_dict(state["model"])
    return net


def main() -> None:
    cfg = config.parse()
    rank, world = setup(cfg["pg_timeout_s"])
    model, opt = build(cfg, rank)
    for step in range(cfg["steps"]):
        loss = train_step(model, opt, step, rank, cfg)
        if is_main():
            print(f"step {step} loss {loss:.4f}", flush=True)
    if cfg["case"] == "o_monitored_barrier_slow_rank":
        evaluate(model, rank, cfg)
    if cfg["case"] == "o_dcp_resume_aux":
        save(model, cfg)
        resume(cfg)
    if is_main():
        print("done", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
