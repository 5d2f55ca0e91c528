"""The program's own GPU kernel (Triton) spins until a flag is set, and the host sets the flag with a torch op
queued on the same stream behind it: the release never runs, the GPU spins, and the host waits in
torch.cuda.synchronize() forever (GPU at 100%, process stuck: pytorch/pytorch#95944, QwenAudio/CosyVoice#1649)."""

import torch
import triton
import triton.language as tl

from zoo.data import quiet_torch


@triton.jit
def _wait_ready(flag, out):
    ready = tl.load(flag, volatile=True)
    while ready == 0:
        ready = tl.load(flag, volatile=True)
    tl.store(out, 1.0)


def main() -> None:
    quiet_torch()
    flag = torch.zeros(1, dtype=torch.int32, device="cuda")
    out = torch.zeros(1, device="cuda")
    _wait_ready[(1,)](flag, out)
    flag.fill_(1)  # the bug: queued on the same stream, behind the kernel that waits for it
    torch.cuda.synchronize()
    print(float(out))
