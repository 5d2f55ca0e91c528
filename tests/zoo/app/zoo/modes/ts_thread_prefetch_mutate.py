"""A prefetch thread builds the next batch of rows from the shared DataFrame while the main trains on the current
one; the main drops the outlier hours from that same frame in place after its first step. The thread's row labels
were taken before the drop; `future.result()` re-raises its error in the main."""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import torch

FRAME = pd.DataFrame({"sales": np.linspace(10, 90, 64), "temp": np.linspace(5, 25, 64)})
FRAME.loc[[21, 22], "sales"] = 900.0  # a stock-take day recorded as sales
DROPPED = threading.Event()


def prefetch(labels: list) -> torch.Tensor:
    DROPPED.wait(5)  # the disk read of the next shard
    rows = FRAME.loc[labels, ["sales", "temp"]]
    return torch.tensor(rows.to_numpy(np.float32))


def main() -> None:
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="prefetch") as pool:
        batch = torch.tensor(FRAME.loc[list(range(0, 16)), ["sales", "temp"]].to_numpy(np.float32))
        for step in range(4):
            nxt = pool.submit(prefetch, list(range(16 * (step + 1), 16 * (step + 2))))
            loss = model(batch).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"step {step} loss {loss.item():.3f}", flush=True)
            if step == 0:
                FRAME.drop(index=FRAME.index[FRAME["sales"] > 500], inplace=True)
                DROPPED.set()
            batch = nxt.result()
