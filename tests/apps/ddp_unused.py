"""DDP with a parameter the forward never uses: DistributedDataParallel's own error, fixed by its own knob.

    torchrun --nproc_per_node=2 ddp_unused.py

2 gloo ranks on CPU; `head` is built but never called. The truth, from running it alone (torch 2.13 CPU):
both ranks fail in their second forward (ddp_unused.py:34 in main), each with DDP's own
`RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. ...
find_unused_parameters=True ...`, labelled `[rank0]:` and `[rank1]:`, rank 0's first in stderr; torchrun exits
1, its Root Cause rank 0 (exitcode 1), rank 1 under Failures (exitcode 1). Both ranks raise on their own:
neither is the other's victim. With find_unused_parameters=True (the knob, under inject) it passes.
"""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(4, 4)
        self.head = torch.nn.Linear(4, 1)  # unused: forward returns before it

    def forward(self, x):
        return self.body(x)


def main() -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo")
    model = DistributedDataParallel(Model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(3):
        loss = model(torch.randn(2, 4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
