"""The best model saved with `torch.save(state, cfg["save_path"])`, where the config's save_path names the
checkpoint folder itself (the folder the program just created for it), not a file inside it."""

import os
import tempfile

import torch

CFG = {"save_path": os.path.join(tempfile.gettempdir(), "io-best-ckpt")}


def main() -> None:
    os.makedirs(CFG["save_path"], exist_ok=True)
    torch.manual_seed(0)
    model = torch.nn.Linear(16, 4)
    loss = model(torch.randn(8, 16)).pow(2).mean()
    loss.backward()
    print(f"val loss {loss.item():.4f}: new best, saving", flush=True)
    torch.save(model.state_dict(), CFG["save_path"])
