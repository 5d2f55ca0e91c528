"""A sender thread hands an evaluation child 120 small tensors at once through a torch.multiprocessing
SimpleQueue (sharing strategy file_descriptor, the default); the program set its own open-files limit to 64
at start, so the thread's put fails once the descriptors kept for the unread tensors reach it."""

import resource
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.multiprocessing as mp


def evaluator(q, ready) -> None:
    ready.wait(30)
    while (t := q.get()) is not None:
        t.sum()


def send_all(q, tensors: list) -> int:
    for t in tensors:
        q.put(t)
    return len(tensors)


def main() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    q, ready = mp.SimpleQueue(), mp.Event()
    child = mp.Process(target=evaluator, args=(q, ready), daemon=True)
    child.start()
    tensors = [torch.full((3,), float(i)) for i in range(120)]
    try:
        with ThreadPoolExecutor(1) as pool:
            sent = pool.submit(send_all, q, tensors).result()
        print(f"sent {sent} tensors", flush=True)
    finally:
        child.terminate()
        child.join()
