"""Hogwild training (as PyTorch's examples/mnist_hogwild): one model in shared memory, N processes update it."""

import torch
import torch.multiprocessing as mp

from recsys import data
from recsys.model import TwoTower, bpr_loss


def train_proc(rank, model, rows):
    torch.manual_seed(rank)
    opt = torch.optim.SparseAdam(list(model.parameters()), lr=0.01)
    batch = data.collate_bags([data.Clicks(rows)[i] for i in range(8)])
    users, items, flat, offsets, _ = batch
    for step in range(3):
        loss = bpr_loss(model(users, items, flat, offsets), model(users, (items + 1) % data.N_ITEMS, flat, offsets))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"proc {rank} step {step} loss {loss.item():.4f}", flush=True)


def train_hogwild(procs):
    model = TwoTower(20, data.N_ITEMS, sparse=True)
    model.share_memory()
    rows = data.click_log()
    workers = []
    for rank in range(procs):
        p = mp.Process(target=train_proc, args=(rank, model, rows[rank::procs]))
        p.start()
        workers.append(p)
    for p in workers:
        p.join()
    failed = [p.exitcode for p in workers if p.exitcode != 0]
    if failed:
        raise RuntimeError(f"{len(failed)} Hogwild trainer(s) failed, exit codes {failed}")
