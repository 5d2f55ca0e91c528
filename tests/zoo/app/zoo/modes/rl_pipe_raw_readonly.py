"""Env workers send observations as raw bytes (`send_bytes(obs.tobytes())`, to skip pickling); the learner reads
them with `np.frombuffer`, which gives a read-only view of the received bytes; the running observation normaliser
then centres the batch in place."""

import multiprocessing as mp

import numpy as np


class RunningNorm:
    def __init__(self, dim: int) -> None:
        self.mean, self.var, self.count = np.zeros(dim, np.float32), np.ones(dim, np.float32), 1e-4

    def normalize(self, obs: np.ndarray) -> np.ndarray:
        self.count += 1
        self.mean += (obs - self.mean) / self.count
        obs -= self.mean
        obs /= np.sqrt(self.var)
        return obs


def worker(remote, parent_remote, seed: int) -> None:
    parent_remote.close()
    rng = np.random.default_rng(seed)
    while remote.recv() == "step":
        remote.send_bytes(rng.standard_normal(4).astype(np.float32).tobytes())


def main() -> None:
    ctx = mp.get_context("fork")
    remotes = []
    for i in range(2):
        remote, work_remote = ctx.Pipe()
        ctx.Process(target=worker, args=(work_remote, remote, i), daemon=True).start()
        work_remote.close()
        remotes.append(remote)
    norm = RunningNorm(4)
    print("2 env workers started (raw observations)", flush=True)
    for step in range(5):
        for remote in remotes:
            remote.send("step")
        for remote in remotes:
            obs = np.frombuffer(remote.recv_bytes(), dtype=np.float32)
            obs = norm.normalize(obs)
        print(f"step {step}: obs {obs.round(2)}", flush=True)
