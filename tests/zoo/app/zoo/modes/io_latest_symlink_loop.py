"""Each checkpoint is saved as step_N.pt and a `latest.pt` symlink is pointed at it for resuming; the link
is made with the link's own name as its target (`os.symlink(os.path.basename(link), link)`), so it points
at itself, and resuming from it fails."""

import os
import tempfile

import torch


def save(model: torch.nn.Module, folder: str, step: int) -> str:
    path = os.path.join(folder, f"step_{step}.pt")
    torch.save(model.state_dict(), path)
    link = os.path.join(folder, "latest.pt")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.basename(link), link)
    return link


def main() -> None:
    folder = tempfile.mkdtemp(prefix="io-latest-")
    model = torch.nn.Linear(8, 2)
    link = save(model, folder, 100)
    print(f"saved step 100, {link} updated; resuming", flush=True)
    model.load_state_dict(torch.load(link, weights_only=True))
