"""The program's C prefetcher runs a pthread that waits on a condition variable for work; the program stops it at
exit (atexit) with `nc_prefetch_stop`, which sets the stop flag without signalling the condition and joins the
thread: the thread never wakes, the join never returns. Training ends, prints `done`, and the process never
exits."""

import atexit

import torch

from zoo.nc_native import load

LIB = load()


def close_prefetcher() -> None:
    print("stopping the prefetcher", flush=True)
    LIB.nc_prefetch_stop()


def main() -> None:
    torch.set_num_threads(1)
    LIB.nc_prefetch_start()
    atexit.register(close_prefetcher)
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(5):
        LIB.nc_prefetch_push()
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"done, prefetched {LIB.nc_prefetch_done()}", flush=True)
