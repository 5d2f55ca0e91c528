"""A progressive GAN grows its generator from 8x8 to 16x16 images at step 6; a preview thread stacks the last 8
samples from a queue into one grid with torch.stack, and the queue still holds 8x8 samples beside the new 16x16
ones: the thread dies; the main, waiting for the grid with a timeout, gives up."""

import queue
import threading

import torch
import torch.nn.functional as F


def grid(samples: list[torch.Tensor]) -> torch.Tensor:
    batch = torch.stack(samples)
    return batch.view(2, 4, *batch.shape[1:]).permute(2, 0, 3, 1, 4).flatten(3, 4).flatten(1, 2)


def previewer(inbox: queue.Queue, outbox: queue.Queue) -> None:
    window: list[torch.Tensor] = []
    while True:
        window.append(inbox.get())
        if len(window) == 8:
            outbox.put(grid(window))
            window = []


def main() -> None:
    torch.manual_seed(0)
    inbox: queue.Queue = queue.Queue()
    outbox: queue.Queue = queue.Queue()
    threading.Thread(target=previewer, args=(inbox, outbox), daemon=True).start()
    gen8 = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.Tanh())
    side = 8
    for step in range(12):
        if step == 6:
            side = 16
            print("growing the generator to 16x16", flush=True)
        img = gen8(torch.randn(1, 16)).view(1, 1, 8, 8).detach()
        if side == 16:
            img = F.interpolate(img, scale_factor=2, mode="nearest")
        inbox.put(img[0])
    first = outbox.get(timeout=3)
    print(f"preview grid {tuple(first.shape)}", flush=True)
    second = outbox.get(timeout=3)
    print(f"preview grid {tuple(second.shape)}", flush=True)
