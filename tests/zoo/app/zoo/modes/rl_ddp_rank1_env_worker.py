"""torchrun, 2 gloo ranks: each rank's learner steps 2 env workers over Pipes and averages gradients with DDP.
Rank 1's environments read the reward scale from per-host settings; on its host it is the string "1e-2"; the
worker's step multiplies a float by it and dies; rank 1's learner gets EOFError and exits; rank 0 waits in the
next gradient all-reduce."""

import multiprocessing as mp

import numpy as np
import torch
import torch.distributed as dist
from torch import nn


class Env:
    def __init__(self, seed: int, reward_scale) -> None:
        self.rng = np.random.default_rng(seed)
        self.reward_scale = reward_scale

    def step(self, action: int):
        obs = self.rng.standard_normal(4).astype(np.float32)
        reward = (1.0 - 0.1 * action) * self.reward_scale
        return obs, reward


def worker(remote, parent_remote, seed: int, reward_scale) -> None:
    parent_remote.close()
    env = Env(seed, reward_scale)
    while True:
        cmd, data = remote.recv()
        if cmd != "step":
            break
        remote.send(env.step(data))


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    reward_scale = 1e-2 if rank == 0 else "1e-2"
    ctx = mp.get_context("fork")
    remotes = []
    for i in range(2):
        remote, work_remote = ctx.Pipe()
        ctx.Process(target=worker, args=(work_remote, remote, 10 * rank + i, reward_scale), daemon=True).start()
        work_remote.close()
        remotes.append(remote)
    model = nn.parallel.DistributedDataParallel(nn.Linear(4, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    obs = torch.zeros(2, 4)
    for step in range(5):
        act = model(obs).argmax(-1)
        for remote, a in zip(remotes, act.tolist()):
            remote.send(("step", a))
        results = [remote.recv() for remote in remotes]
        obs = torch.as_tensor(np.stack([o for o, _ in results]))
        rew = torch.tensor([r for _, r in results], dtype=torch.float32)
        loss = -(model(obs).log_softmax(-1)[:, 0] * rew).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
