"""The script guards the shared box with its own memory cap: RLIMIT_AS set to what the process maps now plus
512 MB. The feature matrix it then allocates for the whole dataset needs 1.5 GB: torch's CPU allocator is refused
(`DefaultCPUAllocator: can't allocate memory`)."""

import resource

import torch


def mapped_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


def cap_memory(extra_mb: int) -> None:
    limit = mapped_bytes() + extra_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))


def build_features(n_rows: int, dim: int) -> torch.Tensor:
    return torch.empty(n_rows, dim, dtype=torch.float32)


def main() -> None:
    cap_memory(512)
    small = build_features(1000, 256)
    print(f"probe batch {tuple(small.shape)}", flush=True)
    features = build_features(1_500_000, 256)
    print(f"features {tuple(features.shape)}", flush=True)
