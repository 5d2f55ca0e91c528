"""Clips loaded and augmented with a random gain by a thread pool (2 threads) ahead of training; the samples are
kept as int16 (as read) and scaled in place by a float gain."""

import io
import wave
from concurrent.futures import ThreadPoolExecutor

import numpy as np

SR = 16000


def make_clip(i: int) -> bytes:
    rng = np.random.default_rng(i)
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes((rng.standard_normal(SR // 4) * 2000).astype(np.int16).tobytes())
    return buf.getvalue()


def load_augmented(i: int, blob: bytes) -> np.ndarray:
    with wave.open(io.BytesIO(blob), "rb") as w:
        x = np.frombuffer(w.readframes(w.getnframes()), np.int16).copy()
    gain = np.random.default_rng(100 + i).uniform(0.5, 1.5)
    x *= gain
    return x


def main() -> None:
    blobs = [make_clip(i) for i in range(12)]
    print(f"augmenting {len(blobs)} clips in 2 threads", flush=True)
    with ThreadPoolExecutor(2, thread_name_prefix="augment") as pool:
        for i, x in enumerate(pool.map(load_augmented, range(len(blobs)), blobs)):
            print(f"clip {i}: peak {int(np.abs(x).max())}", flush=True)
