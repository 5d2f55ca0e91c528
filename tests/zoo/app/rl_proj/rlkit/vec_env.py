"""Environments in subprocesses that talk over multiprocessing Pipes (SubprocVecEnv's design)."""

import multiprocessing as mp

import numpy as np


def worker(remote, parent_remote, make_env, stop_on_done: bool) -> None:
    parent_remote.close()
    env = make_env()
    while True:
        cmd, data = remote.recv()
        if cmd == "step":
            obs, reward, done, info = env.step(data)
            if done and stop_on_done:
                break
            if done:
                obs = env.reset()
            remote.send((obs, reward, done, info))
        elif cmd == "reset":
            remote.send(env.reset())
        elif cmd == "close":
            remote.close()
            break


class SubprocVecEnv:
    def __init__(self, env_fns, obs_dim: int, stop_on_done: bool = False) -> None:
        ctx = mp.get_context("fork")
        self.remotes, self.procs = [], []
        for fn in env_fns:
            remote, work_remote = ctx.Pipe()
            proc = ctx.Process(target=worker, args=(work_remote, remote, fn, stop_on_done), daemon=True)
            proc.start()
            work_remote.close()
            self.remotes.append(remote)
            self.procs.append(proc)
        self.buf_obs = np.zeros((len(env_fns), obs_dim), dtype=np.float32)

    def reset(self) -> np.ndarray:
        for remote in self.remotes:
            remote.send(("reset", None))
        for i, remote in enumerate(self.remotes):
            self.buf_obs[i] = remote.recv()
        return self.buf_obs.copy()

    def step_async(self, actions) -> None:
        for remote, action in zip(self.remotes, actions):
            remote.send(("step", int(action)))

    def step_wait(self):
        results = [remote.recv() for remote in self.remotes]
        rewards = np.zeros(len(results), dtype=np.float32)
        dones = np.zeros(len(results), dtype=bool)
        for i, (obs, reward, done, _info) in enumerate(results):
            self.buf_obs[i] = obs
            rewards[i], dones[i] = reward, done
        return self.buf_obs.copy(), rewards, dones

    def step(self, actions):
        self.step_async(actions)
        return self.step_wait()

    def close(self) -> None:
        for remote in self.remotes:
            remote.send(("close", None))
        for proc in self.procs:
            proc.join()
        for remote in self.remotes:
            remote.close()
