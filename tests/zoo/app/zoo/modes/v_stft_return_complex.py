"""A spectrogram transform written for an older torch: torch.stft without `return_complex`, then the real and
imaginary parts read from a trailing dim of 2; torch now refuses a real input without return_complex."""

import torch


def spectrogram(wave: torch.Tensor) -> torch.Tensor:
    spec = torch.stft(wave, n_fft=64, hop_length=16, window=torch.hann_window(64))
    return spec[..., 0] ** 2 + spec[..., 1] ** 2


def main() -> None:
    torch.manual_seed(0)
    waves = torch.randn(4, 1600)
    print(spectrogram(waves).shape)
