"""The cases `train.py --case NAME` runs."""

import numpy as np
import torch
from PIL import PngImagePlugin
from torch.utils.data import DataLoader

from nlpipe import augment, shards
from nlpipe.data import Hashed, Records, Scans
from nlpipe.loop import fit


def short_record() -> None:
    path = shards.write_records(shards.workdir() / "train.rec", n=12, dim=16, cut=5)
    loader = DataLoader(Records(path), batch_size=2, num_workers=2, multiprocessing_context="fork")
    fit(loader, dim=16)


def hashed_features_segv() -> None:
    path = shards.write_hashed(shards.workdir() / "bow.npz", n=12, n_features=512, bad=4)
    loader = DataLoader(
        Hashed(path, n_features=512, dim=8), batch_size=2, num_workers=2, multiprocessing_context="fork"
    )
    fit(loader, dim=8)


def png_text_spawn() -> None:
    # the scanner's XMP packets are larger than Pillow's default limit for a text chunk
    PngImagePlugin.MAX_TEXT_CHUNK = 8 * 1024 * 1024
    paths = shards.write_scans(shards.workdir() / "scans", n=8)
    loader = DataLoader(Scans(paths), batch_size=2, num_workers=2, multiprocessing_context="spawn")
    fit(loader, dim=32 * 32)


def filtfilt_short_clip() -> None:
    clips = shards.write_clips(n=10, short=7)
    model = torch.nn.Linear(33, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, clip in enumerate(clips):
        x = torch.from_numpy(augment.features(clip)).unsqueeze(0)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"clip {step} loss {loss.item():.4f}", flush=True)
    print("mean", float(np.mean([c.size for c in clips])))


CASES = {
    "short_record": short_record,
    "hashed_features_segv": hashed_features_segv,
    "png_text_spawn": png_text_spawn,
    "filtfilt_short_clip": filtfilt_short_clip,
}
