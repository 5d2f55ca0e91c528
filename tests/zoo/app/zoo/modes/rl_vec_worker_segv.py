"""Environment workers over Pipes render a frame each step into a frame buffer through ctypes; the buffer is made
only for render_mode="rgb_array", and the training config left render_mode None, so the worker copies into address
0. The worker dies by SIGSEGV; the learner's recv() gets EOFError."""

import ctypes
import multiprocessing as mp

import numpy as np


class Env:
    def __init__(self, seed: int, render_mode=None) -> None:
        self.rng = np.random.default_rng(seed)
        self.frame = np.zeros((16, 16), dtype=np.uint8)
        self.fb_addr = ctypes.c_void_p(None) if render_mode is None else ctypes.c_void_p(self.frame.ctypes.data)

    def step(self, action: int):
        obs = self.rng.standard_normal(4).astype(np.float32)
        canvas = np.full((16, 16), 10 * action, dtype=np.uint8)
        ctypes.memmove(self.fb_addr, canvas.ctypes.data, canvas.nbytes)
        return obs, 1.0, False


def worker(remote, parent_remote, seed: int) -> None:
    parent_remote.close()
    env = Env(seed)
    while True:
        cmd, data = remote.recv()
        if cmd == "step":
            remote.send(env.step(data))
        else:
            break


def main() -> None:
    ctx = mp.get_context("fork")
    remotes = []
    for i in range(2):
        remote, work_remote = ctx.Pipe()
        ctx.Process(target=worker, args=(work_remote, remote, i), daemon=True).start()
        work_remote.close()
        remotes.append(remote)
    print("2 env workers started", flush=True)
    for step in range(10):
        for remote in remotes:
            remote.send(("step", step % 2))
        results = [remote.recv() for remote in remotes]
        print(f"step {step}: {len(results)} results", flush=True)
