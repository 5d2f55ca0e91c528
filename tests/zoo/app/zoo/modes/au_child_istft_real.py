"""A vocoder check in a `multiprocessing.Process` (fork): the child resynthesises the validation clips from their
spectrograms with `torch.istft`; the spectrograms were cached as real (..., 2) tensors by an older feature step
(`torch.view_as_real`). The main checks the child's exit code."""

import multiprocessing as mp
import os
import sys
import tempfile

import torch

N_FFT = 512


def cache_spectrograms(path: str) -> None:
    torch.manual_seed(0)
    specs = [
        torch.stft(torch.randn(8000), N_FFT, window=torch.hann_window(N_FFT), return_complex=True) for _ in range(4)
    ]
    torch.save([torch.view_as_real(s) for s in specs], path)


def resynthesise(path: str) -> None:
    for i, spec in enumerate(torch.load(path)):
        wav = torch.istft(spec, N_FFT, window=torch.hann_window(N_FFT))
        print(f"clip {i}: {wav.numel()} samples", flush=True)


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="au_istft_"), "val_specs.pt")
    cache_spectrograms(path)
    print("vocoder check in a child process", flush=True)
    child = mp.get_context("fork").Process(target=resynthesise, args=(path,), name="vocoder-check")
    child.start()
    child.join()
    if child.exitcode != 0:
        sys.exit(f"vocoder check failed (exit code {child.exitcode})")
    print("vocoder check passed")
