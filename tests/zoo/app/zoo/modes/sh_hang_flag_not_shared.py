"""A stop flag kept in a tensor that was never made shared: the forked writer child sets it in its own copy,
the main polls its copy for ever."""

import time

import torch
import torch.multiprocessing as mp


def writer(flag: torch.Tensor, out: str) -> None:
    torch.save(torch.randn(16, 4), out)
    flag[0] = 1  # done: the main may read the checkpoint


def main() -> None:
    flag = torch.zeros(1)  # no share_memory_(): the fork child gets a copy
    p = mp.Process(target=writer, args=(flag, "/tmp/sh_hang_flag_ckpt.pt"))
    p.start()
    print("waiting for the writer", flush=True)
    while flag[0] == 0:
        time.sleep(0.1)
    print("checkpoint written")
