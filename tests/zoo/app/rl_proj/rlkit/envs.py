"""A CartPole-like environment in numpy (no gym)."""

import numpy as np


class Pole:
    def __init__(self, seed: int, obs_dim: int = 4, max_steps: int = 40) -> None:
        self.rng = np.random.default_rng(seed)
        self.obs_dim = obs_dim
        self.max_steps = max_steps
        self.forces = np.array([-1.0, 1.0])
        self.state = np.zeros(obs_dim)
        self.t = 0

    def reset(self) -> np.ndarray:
        self.state = self.rng.uniform(-0.05, 0.05, self.obs_dim)
        self.t = 0
        return self.state.astype(np.float32)

    def step(self, action: int):
        force = self.forces[action]
        self.state[1] += 0.1 * force
        self.state[0] += 0.02 * self.state[1]
        self.state[3] += 0.05 * self.state[2] - 0.01 * force
        self.state[2] += 0.02 * self.state[3]
        self.t += 1
        done = bool(abs(self.state[2]) > 0.2 or self.t >= self.max_steps)
        return self.state.astype(np.float32), 1.0, done, {}
