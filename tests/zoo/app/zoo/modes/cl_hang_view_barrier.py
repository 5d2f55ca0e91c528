"""Two view threads cut the two augmented views of each image, kept in step by a `threading.Barrier(2)` so both
use the same decoded copy; the second view's thread skips an image it cannot decode (`continue` before the
barrier). The first view's thread then waits at the barrier for ever on the last image, and the main waits for
the last pair on the views queue (no timeout)."""

import queue
import threading

import torch

N = 12


def decode(i: int):
    return None if i == 7 else torch.rand(3, 32, 32, generator=torch.Generator().manual_seed(i))


def view_thread(k: int, barrier: threading.Barrier, out: queue.Queue) -> None:
    for i in range(N):
        image = decode(i)
        if k == 1 and image is None:
            continue
        barrier.wait()
        view = image if image is not None else torch.zeros(3, 32, 32)
        out.put((i, k, torch.flip(view, dims=[-1]) if k else view))


def main() -> None:
    barrier = threading.Barrier(2)
    views = queue.Queue()
    for k in range(2):
        threading.Thread(target=view_thread, args=(k, barrier, views), name=f"view-{k}", daemon=True).start()
    pairs = 0
    while pairs < N:
        a, b = views.get(), views.get()
        pairs += 1
        print(f"pair {pairs}: images {a[0]} and {b[0]}", flush=True)
    print("all pairs made", flush=True)
