"""Actor threads step their environments and push transitions on a queue for the learner. The bootstrap of a
truncated episode reads `info["terminal_observation"]` (the key an older vec-env wrapper used); these environments
put it under `info["final_observation"]`. The actor thread dies; the learner waits for its batch with a timeout."""

import queue
import threading

import numpy as np


class Env:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.t = 0

    def step(self, action: int):
        self.t += 1
        obs = self.rng.standard_normal(4).astype(np.float32)
        truncated = self.t % 12 == 0
        info = {"final_observation": obs} if truncated else {}
        return obs, 1.0, truncated, info


def actor(idx: int, q: queue.Queue) -> None:
    env = Env(idx)
    for _ in range(40):
        obs, rew, truncated, info = env.step(idx % 2)
        next_obs = info["terminal_observation"] if truncated else obs
        q.put((idx, next_obs, rew))


def main() -> None:
    q: queue.Queue = queue.Queue()
    threads = [threading.Thread(target=actor, args=(i, q), name=f"actor-{i}", daemon=True) for i in range(2)]
    for t in threads:
        t.start()
    for step in range(80):
        idx, obs, rew = q.get(timeout=3)
        if step % 20 == 0:
            print(f"learner step {step}: from actor {idx}", flush=True)
