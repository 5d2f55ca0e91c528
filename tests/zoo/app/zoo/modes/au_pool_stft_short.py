"""Log spectrograms extracted in a process pool (2 forked children), one clip per task, `center=False` frames of
a 512-point FFT; one clip of the set is a 20 ms click, shorter than one frame."""

import os
import tempfile
import wave
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import torch

SR = 16000


def write_clips(root: str) -> list[str]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(8):
        n = int(SR * 0.02) if i == 5 else SR // 2
        path = os.path.join(root, f"utt_{i}.wav")
        with wave.open(path, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SR)
            w.writeframes((rng.standard_normal(n) * 3000).astype(np.int16).tobytes())
        paths.append(path)
    return paths


def extract(path: str) -> torch.Tensor:
    with wave.open(path, "rb") as w:
        x = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768
    spec = torch.stft(
        torch.from_numpy(x),
        n_fft=512,
        hop_length=160,
        window=torch.hann_window(512),
        center=False,
        return_complex=True,
    )
    return torch.log1p(spec.abs() ** 2)


def main() -> None:
    paths = write_clips(tempfile.mkdtemp(prefix="au_pool_"))
    print(f"extracting features of {len(paths)} clips in 2 processes", flush=True)
    with ProcessPoolExecutor(2) as pool:
        feats = list(pool.map(extract, paths))
    print("frames:", [f.shape[-1] for f in feats])
