"""sharing strategy file_system: a producer child puts 3 feature tensors on a queue and ends; the main, to stop
/dev/shm filling up, removes the finished producer's `torch_<pid>_*` segments before it reads the queue."""

import glob
import os

import torch
import torch.multiprocessing as mp


def producer(q) -> None:
    for i in range(3):
        q.put(torch.full((4, 4), float(i)))


def free_leaked_segments(pid: int) -> int:
    paths = glob.glob(f"/dev/shm/torch_{pid}_*")
    for path in paths:
        os.remove(path)
    return len(paths)


def main() -> None:
    mp.set_sharing_strategy("file_system")
    q = mp.Queue()
    p = mp.Process(target=producer, args=(q,))
    p.start()
    p.join()
    print(f"producer done (exit {p.exitcode}); freed {free_leaked_segments(p.pid)} segments", flush=True)
    feats = [q.get(timeout=10) for _ in range(3)]
    print(torch.stack(feats).mean())
