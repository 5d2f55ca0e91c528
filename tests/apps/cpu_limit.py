"""A process that runs past the CPU-time limit it set itself (RLIMIT_CPU: a guard against runaway decoders):
the kernel ends it with SIGXCPU, for which faulthandler prints nothing.
`mode=worker`: each DataLoader worker sets the limit in its worker_init_fn and spins in the program's own
decode(); the main reports `DataLoader worker (pid N) is killed by signal: CPU time limit exceeded.`
`mode=main`: the main process sets it and spins in its own decode(), without torch.
`mode=rank`, under `torchrun --nproc_per_node=2`: rank 1 sets it and spins in decode(), rank 0 ends at once.
"""

import resource
import sys


def cap_cpu(*_args) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (1, resource.RLIM_INFINITY))


def decode(i: int) -> int:
    total = i
    while True:  # a decoder that never finishes: past 1 s of CPU the kernel sends SIGXCPU
        total = (total * 31 + 7) % 1000003


def main() -> None:
    mode = dict(a.split("=", 1) for a in sys.argv[1:])["mode"]
    if mode == "main":
        cap_cpu()
        decode(0)
    from torch.utils.data import DataLoader

    for batch in DataLoader(range(4), batch_size=2, num_workers=1, worker_init_fn=cap_cpu, collate_fn=decode_all):
        print(batch)


def decode_all(items: list) -> list:
    return [decode(i) for i in items]


def rank() -> None:
    import os

    if os.environ["RANK"] == "1":
        cap_cpu()
        decode(1)


if __name__ == "__main__":
    rank() if "mode=rank" in sys.argv[1:] else main()
