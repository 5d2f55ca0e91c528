"""The last checkpoint is uploaded by an atexit hook through the program's upload executor (a
ThreadPoolExecutor), "so that even a crashed run ships its weights". At exit, concurrent.futures has already shut
its executors down (its own exit hook runs first), so the submit raises; Python prints it as `Exception ignored
in atexit callback` and the process still exits 0: training succeeded, the upload never happened."""

import atexit
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import torch

UPLOADS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="upload")
STATE: dict = {}


def upload(path: str) -> None:
    print(f"uploaded {os.path.basename(path)} ({os.path.getsize(path)} bytes)", flush=True)


def ship_last_checkpoint() -> None:
    path = os.path.join(tempfile.gettempdir(), "ex_atexit_upload_last.pt")
    torch.save(STATE["model"].state_dict(), path)
    print("uploading the last checkpoint", flush=True)
    UPLOADS.submit(upload, path).result()


def main() -> None:
    atexit.register(ship_last_checkpoint)
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 2)
    STATE["model"] = model
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _step in range(20):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"training done, loss {loss.item():.4f}", flush=True)
