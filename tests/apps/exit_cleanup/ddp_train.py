"""Two gloo ranks under torchrun: an all_reduce, the group destroyed, then rank 1's native cleanup faults at
exit (cleanup/native.py), after everything Python runs at exit."""

import os

import torch
import torch.distributed as dist
from cleanup.native import register_faulting_cleanup

dist.init_process_group("gloo")
total = torch.ones(2)
dist.all_reduce(total)
dist.barrier()
dist.destroy_process_group()
if os.environ["RANK"] == "1":
    register_faulting_cleanup()
print(f"rank {os.environ['RANK']}: {total.tolist()}", flush=True)
