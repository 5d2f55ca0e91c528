"""Images decoded by a thread pool sized for the big box (64 threads); on the CPU job the program holds itself to
its memory request, 192 MB past its mapping (RLIMIT_AS). Every thread's stack is mapped at the stack limit's size
(8 MiB), so the pool's threads alone ask for 512 MB of address space: a `submit` past the budget cannot start its
thread, `RuntimeError: can't start new thread`."""

import resource
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def mapped_bytes() -> int:
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmSize:")).split()[1]) * 1024


def decode(i: int) -> float:
    time.sleep(0.5)
    return float(np.full((64, 64), i, np.float32).mean())


def decode_all(n: int = 64) -> list[float]:
    with ThreadPoolExecutor(max_workers=64, thread_name_prefix="decode") as pool:
        futures = [pool.submit(decode, i) for i in range(n)]
        return [f.result() for f in futures]


def main() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (mapped_bytes() + (192 << 20), hard))
    print("decoding 64 images", flush=True)
    print(f"{len(decode_all())} images decoded", flush=True)
