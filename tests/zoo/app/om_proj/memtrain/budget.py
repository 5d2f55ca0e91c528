"""The job's memory budget: the scheduler grants each process a fixed amount past what it maps at start."""

import resource


def mapped_bytes() -> int:
    with open("/proc/self/status") as f:
        line = next(x for x in f if x.startswith("VmSize:"))
    return int(line.split()[1]) * 1024


def hold_to(extra_mb: int) -> None:
    """RLIMIT_AS (soft) at what this process maps now plus extra_mb."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (mapped_bytes() + (extra_mb << 20), hard))


def worker_budget(worker_id: int) -> None:
    """worker_init_fn: each loader worker gets 512 MB past its own mapping."""
    hold_to(512)
