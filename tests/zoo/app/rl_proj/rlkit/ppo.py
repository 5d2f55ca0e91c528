"""PPO: a small actor-critic, rollouts from a SubprocVecEnv, clipped updates."""

import torch
from torch import nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)

    def dist(self, obs: torch.Tensor) -> Categorical:
        return Categorical(logits=self.pi(self.body(obs)))

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.v(self.body(obs)).squeeze(-1)


def rollout(envs, model: ActorCritic, obs, steps: int):
    batch = {"obs": [], "act": [], "logp": [], "rew": [], "done": [], "val": []}
    for _ in range(steps):
        o = torch.as_tensor(obs)
        with torch.no_grad():
            d = model.dist(o)
            act = d.sample()
            batch["logp"].append(d.log_prob(act))
            batch["val"].append(model.value(o))
        obs, rew, done = envs.step(act.numpy())
        batch["obs"].append(o)
        batch["act"].append(act)
        batch["rew"].append(torch.as_tensor(rew))
        batch["done"].append(torch.as_tensor(done, dtype=torch.float32))
    return {k: torch.stack(v) for k, v in batch.items()}, obs


def advantages(batch, gamma: float = 0.99, lam: float = 0.95) -> torch.Tensor:
    adv = torch.zeros_like(batch["rew"])
    last = torch.zeros_like(batch["rew"][0])
    for t in reversed(range(len(adv))):
        nonterm = 1.0 - batch["done"][t]
        next_v = batch["val"][t + 1] if t + 1 < len(adv) else torch.zeros_like(last)
        delta = batch["rew"][t] + gamma * next_v * nonterm - batch["val"][t]
        last = delta + gamma * lam * nonterm * last
        adv[t] = last
    return adv


def update(model: ActorCritic, opt, batch, minibatch: int, clip: float = 0.2) -> float:
    obs, act = batch["obs"].flatten(0, 1), batch["act"].flatten()
    old_logp, adv = batch["logp"].flatten(), advantages(batch).flatten()
    ret = adv + batch["val"].flatten()
    loss_sum = 0.0
    for idx in torch.randperm(len(obs)).split(minibatch):
        a = adv[idx]
        a = (a - a.mean()) / a.std()
        d = model.dist(obs[idx])
        ratio = (d.log_prob(act[idx]) - old_logp[idx]).exp()
        pg = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
        loss = pg + 0.5 * (model.value(obs[idx]) - ret[idx]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_sum += loss.item()
    return loss_sum
