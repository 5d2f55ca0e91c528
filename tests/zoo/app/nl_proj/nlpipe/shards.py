"""The exporter's output, written fresh for each run into a temporary folder: what the datasets read."""

import io
import struct
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, PngImagePlugin


def workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="nl_proj-"))


def write_records(path: Path, n: int, dim: int, cut: int) -> Path:
    """Records of `dim` float32 features behind a (count) header; record `cut` lost its tail in the copy."""
    with open(path, "wb") as f:
        for i in range(n):
            payload = np.full(dim, i, dtype=np.float32).tobytes()
            if i == cut:
                payload = payload[: len(payload) // 2]
            f.write(struct.pack("<II", dim, len(payload)))
            f.write(payload)
    return path


def write_hashed(path: Path, n: int, n_features: int, bad: int) -> Path:
    """Bag-of-words rows as (indices, values); row `bad` came from the new hasher, which forgot `% n_features`."""
    rng = np.random.default_rng(0)
    rows = {}
    for i in range(n):
        idx = np.sort(rng.choice(n_features, size=6, replace=False)).astype(np.int64)
        if i == bad:
            idx = (idx * 2654435761) % (2**32)
        rows[f"idx{i}"] = idx
        rows[f"val{i}"] = np.ones(6, dtype=np.float32)
    np.savez(path, **rows)
    return path


def write_scans(folder: Path, n: int) -> list[Path]:
    """Scanned pages as PNG, each carrying the scanner's XMP packet (2 MiB once inflated) in a zTXt chunk."""
    folder.mkdir(exist_ok=True)
    paths = []
    for i in range(n):
        info = PngImagePlugin.PngInfo()
        info.add_text("XML:com.adobe.xmp", "<x:xmpmeta/>" + " " * (2 * 1024 * 1024), zip=True)
        buf = io.BytesIO()
        Image.new("L", (32, 32), color=i).save(buf, "PNG", pnginfo=info)
        p = folder / f"page{i:03d}.png"
        p.write_bytes(buf.getvalue())
        paths.append(p)
    return paths


def write_clips(n: int, short: int) -> list[np.ndarray]:
    """Audio clips of 400 samples; clip `short` was cut to 12 by the silence trimmer."""
    t = np.linspace(0, 1, 400, dtype=np.float64)
    clips = [np.sin(2 * np.pi * (5 + i) * t) for i in range(n)]
    clips[short] = clips[short][:12]
    return clips
