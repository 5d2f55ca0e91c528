"""torchrun, 2 gloo ranks. Each rank installs a preemption handler for SIGTERM that saves the rank's checkpoint
and then meets the other ranks at `dist.barrier()` "so that every shard is written before the job ends".
Rank 1's shard filter leaves it no hard examples, and the hardest margin, `min()` over its empty list, raises
at step 2 while rank 0 evaluates alone (3 s, no collective). torchrun sees rank 1 fail and sends SIGTERM to rank 0, whose
handler then waits at a barrier its dead peer will never reach."""

import os
import signal
import sys
import tempfile
import time

import torch
import torch.distributed as dist


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(rank)
    model = torch.nn.Linear(8, 2)

    def on_term(signum, frame) -> None:
        print(f"rank {rank}: SIGTERM, saving the rank's checkpoint", flush=True)
        torch.save(model.state_dict(), os.path.join(tempfile.gettempdir(), f"ex_ddp_rank{rank}.pt"))
        dist.barrier()
        print(f"rank {rank}: all ranks saved", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, on_term)
    for step in range(4):
        x = torch.randn(16, 8)
        scores = model(x).softmax(-1)[:, 1]
        threshold = 0.5 if rank == 0 else 2.0
        hard = [x[i] for i in range(16) if scores[i] > threshold]
        print(f"rank {rank} step {step}: {len(hard)} hard examples", flush=True)
        if step == 2:
            if rank == 0:
                print("rank 0: evaluating alone", flush=True)
                time.sleep(3)
            margin = min(float(scores[i]) - threshold for i in range(16) if scores[i] > threshold)
            print(f"rank {rank}: hardest margin {margin:.3f}", flush=True)
            batch = torch.stack(hard)
            loss = model(batch).pow(2).mean()
            loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad)
    dist.destroy_process_group()
