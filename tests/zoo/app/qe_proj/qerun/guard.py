"""A memory guard for DataLoader workers: an augmentation that leaks should fail its worker, not the host."""

import resource

HEADROOM = 96 * 2**20


def cap_worker_memory(worker_id: int) -> None:
    with open("/proc/self/statm") as f:
        mapped = int(f.read().split()[0]) * resource.getpagesize()
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (mapped + HEADROOM, hard))
