"""A producer process fills a torch.multiprocessing queue with feature blocks; /dev/shm is the container's 8 MiB
(a private tmpfs, as `docker run --shm-size 8m`). Each 16 MiB block is moved to shared memory when the producer's
queue feeder thread pickles it, which fails (`unable to allocate shared memory(shm) for file </torch_...>`); the
feeder prints the traceback and drops the block, the producer ends normally, and the main waits in get() for ever.
"""

import torch
import torch.multiprocessing as mp

from zoo.bq_mounts import private_tmpfs


def produce(queue) -> None:
    for i in range(3):
        queue.put(torch.full((1024, 1024, 4), float(i)))  # 16 MiB of features
    print("producer: 3 blocks queued", flush=True)


def main() -> None:
    private_tmpfs("/dev/shm", 8)
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    producer = ctx.Process(target=produce, args=(queue,))
    producer.start()
    total = 0.0
    for _ in range(3):
        block = queue.get()
        total += block.mean().item()
    producer.join()
    print(f"features {total:.2f}", flush=True)
