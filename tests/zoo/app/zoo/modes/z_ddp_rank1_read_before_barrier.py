"""torchrun, 2 gloo ranks: rank 0 writes the vocabulary file and the others read it. The barrier that should
let rank 0 write first is placed after the read, so rank 1 opens the file before rank 0 has written it (rank 0
writes only once both ranks have reached the barrier)."""

import json
import os
import tempfile
from datetime import timedelta

import torch.distributed as dist

VOCAB = os.path.join(tempfile.gettempdir(), f"z_vocab_{os.environ.get('TORCHELASTIC_RUN_ID', 'local')}.json")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    if rank != 0:
        with open(VOCAB) as f:
            vocab = json.load(f)
    dist.barrier()
    if rank == 0:
        vocab = {"<pad>": 0, "<unk>": 1, "the": 2}
        with open(VOCAB, "w") as f:
            json.dump(vocab, f)
    print(f"rank {rank}: vocab of {len(vocab)}")
    dist.destroy_process_group()
