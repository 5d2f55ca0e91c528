"""The augmentation pipeline runs on one I/O thread pool of a single worker; an augmentation task reads its second
image by submitting the read to the same pool and waiting for it. The only worker is the one waiting: the task
never ends, and the main waits for the first augmented batch for ever.
"""

from concurrent.futures import ThreadPoolExecutor

import torch

POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="io")


def read_image(i: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(i)
    return torch.rand(3, 32, 32, generator=g)


def mixup(i: int) -> torch.Tensor:
    first = read_image(i)
    second = POOL.submit(read_image, i + 1).result()
    return 0.7 * first + 0.3 * second.flip(2)


def main() -> None:
    print("augmenting batch 0", flush=True)
    futures = [POOL.submit(mixup, i) for i in range(4)]
    batch = torch.stack([f.result() for f in futures])
    print(f"batch {tuple(batch.shape)}", flush=True)
