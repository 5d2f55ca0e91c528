"""The run's final checkpoint is packed into a tar archive by `ArchiveOnExit.__del__`, relying on the module-level
writer being collected when the interpreter exits. By then Python is tearing modules down: the lazy `import
tarfile` inside `__del__` fails (`Exception ignored in: <function ArchiveOnExit.__del__ ...>` ... `ImportError:
sys.meta_path is None, Python is likely shutting down`). The exception is ignored, the archive is never written,
and the process exits 0."""

import os
import tempfile

import torch


class ArchiveOnExit:
    def __init__(self, out_dir: str):
        self.out_dir = out_dir
        self.files: list[str] = []

    def add(self, path: str) -> None:
        self.files.append(path)

    def __del__(self):
        import tarfile

        with tarfile.open(os.path.join(self.out_dir, "final.tar"), "w") as tar:
            for path in self.files:
                tar.add(path, arcname=os.path.basename(path))


OUT = tempfile.mkdtemp()
ARCHIVE = ArchiveOnExit(OUT)


def main() -> None:
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        path = os.path.join(OUT, f"epoch-{epoch}.pt")
        torch.save(model.state_dict(), path)
        ARCHIVE.add(path)
        print(f"epoch {epoch}: loss {loss.item():.4f}, saved {os.path.basename(path)}", flush=True)
    print("training done; the archive is written at exit", flush=True)
