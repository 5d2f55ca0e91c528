"""A small app that fails with a Python exception, one way per `mode=` (pass_params overrides).

Each mode's truth, from running it alone (`python train.py mode=X`, torch 2.13 CPU, Python 3.11): the
innermost frame of the last traceback stderr shows and, where that frame is a library's, the app's own
frame that called into it:
- own_raise: ValueError raised by the app itself, app/data/reader.py:18 in check_label.
- json: json.decoder.JSONDecodeError raised in the standard library (json/decoder.py:353 in raw_decode),
  called from app/data/reader.py:7 in parse_label.
- pil: PIL.UnidentifiedImageError raised in PIL/Image.py (line 3730 in open, Pillow 13), called from
  app/data/reader.py:13 in open_image.
- memory: MemoryError from a 1 EiB bytearray, train.py:36 in allocate (no library frame).
- torch_alloc: RuntimeError `[enforce fail at alloc_cpu.cpp:127] ... DefaultCPUAllocator: can't allocate
  memory` from torch.empty at train.py:42 in allocate_tensor (raised in C++: no Python frame of torch's).
- worker: ValueError raised in a DataLoader worker (app/data/reader.py:18 in check_label), re-raised in the
  main process by torch/_utils.py in reraise: the worker's original traceback is printed last.
- embedding: IndexError `index out of range in self` raised in torch/nn/functional.py in embedding, under
  tinybert's forward (a stand-in library under vendor/site-packages), from train.py:66 in embed.
- ignored: ValueError raised by the app, app/data/reader.py:18 in check_label; at exit a module global's
  __del__ raises AttributeError, which Python prints after it as `Exception ignored in: ...` with a
  traceback of its own: the last one printed, but not the failure.
- chained: RuntimeError raised `from` a FileNotFoundError, app/data/reader.py:27 in load_config; the
  FileNotFoundError's traceback is printed first, the RuntimeError's last.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from app.data import reader  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def allocate():
    return bytearray(1 << 60)  # past any address space: fails whatever the overcommit policy


def allocate_tensor():
    import torch

    return torch.empty(1 << 60, dtype=torch.uint8)


class Labels:
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return reader.check_label(i - 2)


def load_in_worker():
    from torch.utils.data import DataLoader

    for batch in DataLoader(Labels(), batch_size=1, num_workers=1):
        print(batch)


def embed():
    sys.path.insert(0, os.path.join(HERE, "vendor", "site-packages"))
    import tinybert
    import torch

    model = tinybert.Embeddings(vocab=8)
    return model(torch.tensor([3, 99]))  # a token id past the vocabulary


class Cache:
    """Closes a file it never opened: its __del__ raises at the interpreter's exit, after the failure."""

    def __del__(self):
        self.handle.close()


def main(mode):
    print("training", mode, flush=True)
    if mode == "own_raise":
        reader.check_label(-1)
    elif mode == "json":
        reader.parse_label('{"label": 3,')
    elif mode == "pil":
        reader.open_image(os.path.join(HERE, "data", "broken.png"))
    elif mode == "memory":
        allocate()
    elif mode == "torch_alloc":
        allocate_tensor()
    elif mode == "worker":
        load_in_worker()
    elif mode == "embedding":
        embed()
    elif mode == "ignored":
        sys.modules[__name__].cache = Cache()  # a module global: finalized at exit
        reader.check_label(-3)
    elif mode == "chained":
        reader.load_config(os.path.join(HERE, "no-such.yaml"))


if __name__ == "__main__":
    main(dict(a.split("=", 1) for a in sys.argv[1:])["mode"])
