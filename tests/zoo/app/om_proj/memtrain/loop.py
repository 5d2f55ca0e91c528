"""The training loops."""

import os

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from memtrain import budget
from memtrain.data import ScanDataset, ShardDataset, shard_dir, write_shard
from memtrain.model import ScanNet, WideHead


def train_growing(steps: int = 200) -> None:
    """Keeps every step's loss for a running mean, graph and all (retain_graph=True was added to silence
    "Trying to backward through the graph a second time" when the mean was first backpropagated)."""
    torch.manual_seed(0)
    model = WideHead()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    budget.hold_to(1024)
    losses = []
    for step in range(steps):
        x = torch.randn(2048, 512)
        y = torch.randint(0, 8, (2048,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
        losses.append(loss)
        if step % 5 == 0:
            print(f"step {step} mean loss {float(sum(losses) / len(losses)):.4f}", flush=True)


def train_scans() -> None:
    torch.manual_seed(0)
    loader = DataLoader(ScanDataset(), batch_size=2, num_workers=2, worker_init_fn=budget.worker_budget)
    model = ScanNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, x in enumerate(loader):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def train_shards() -> None:
    torch.manual_seed(0)
    path = os.path.join(shard_dir(), "train.lmdb")
    write_shard(path)
    print(f"wrote {path}", flush=True)
    loader = DataLoader(ShardDataset(path), batch_size=4, num_workers=2, worker_init_fn=budget.worker_budget)
    model = torch.nn.Linear(16, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
