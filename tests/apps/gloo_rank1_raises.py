"""Two gloo ranks under torchrun; rank 1 raises before the collective, rank 0 then loses its peer
(tests/test_diagnose.py reads torchrun's --log-dir files of it)."""

import torch
import torch.distributed as dist


def load_shard(rank: int) -> torch.Tensor:
    if rank == 1:
        raise ValueError(f"shard {rank} is empty")
    return torch.ones(2)


def main() -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    x = load_shard(rank)
    dist.all_reduce(x)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
