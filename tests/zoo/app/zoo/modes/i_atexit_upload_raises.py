"""Training ends normally; an atexit handler copies the final checkpoint to an upload folder that was never
created. Python prints the handler's traceback at exit, and the process still exits 0."""

import atexit
import os
import shutil
import tempfile

import torch

WORK = tempfile.mkdtemp()
UPLOAD_DIR = os.path.join(WORK, "upload")


def upload_final() -> None:
    shutil.copy(os.path.join(WORK, "final.pt"), os.path.join(UPLOAD_DIR, "final.pt"))
    print("checkpoint uploaded", flush=True)


def main() -> None:
    atexit.register(upload_final)
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(5):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), os.path.join(WORK, "final.pt"))
    print(f"training done, loss {loss.item():.3f}", flush=True)
