"""A replay buffer in shared memory (`share_memory_()`), filled by actor processes, read by the learner."""

import multiprocessing as mp

import torch


class SharedReplay:
    def __init__(self, capacity: int, obs_dim: int) -> None:
        self.capacity = capacity
        self.obs = torch.zeros(capacity, obs_dim).share_memory_()
        self.reward = torch.zeros(capacity).share_memory_()
        self.count = mp.get_context("fork").Value("i", 0)

    def add(self, obs, reward: float) -> None:
        with self.count.get_lock():
            i = self.count.value % self.capacity
            self.count.value += 1
        self.obs[i] = torch.as_tensor(obs)
        self.reward[i] = reward

    def grow(self) -> None:
        """Double the buffer when actors filled it (the learner wants more history)."""
        self.obs.resize_(2 * self.capacity, self.obs.shape[1])
        self.reward.resize_(2 * self.capacity)
        self.capacity *= 2
