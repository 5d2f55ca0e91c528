"""A background thread unpacks the cached archive while the model is built; the data folder already holds a
file `images` (a listing an earlier run wrote) where the archive has a folder `images/`. The thread dies; the
main then finds the extraction unfinished."""

import io
import os
import tempfile
import threading
import zipfile

import torch

done = threading.Event()


def extract(archive: str, dest: str) -> None:
    with zipfile.ZipFile(archive) as z:
        z.extractall(dest)
    done.set()


def main() -> None:
    cache = tempfile.mkdtemp(prefix="dl_cache_")
    dest = tempfile.mkdtemp(prefix="dl_data_")
    archive = os.path.join(cache, "images.zip")
    buf = io.BytesIO()
    torch.save(torch.zeros(8, 8), buf)
    with zipfile.ZipFile(archive, "w") as z:
        for i in range(4):
            z.writestr(f"images/{i}.pt", buf.getvalue())
    with open(os.path.join(dest, "images"), "w") as f:
        f.write("0.pt\n1.pt\n2.pt\n3.pt\n")
    t = threading.Thread(target=extract, args=(archive, dest), name="extractor")
    t.start()
    model = torch.nn.Linear(64, 10)
    t.join()
    assert done.is_set(), "the extraction thread did not finish; no images to train on"
    print(model)
