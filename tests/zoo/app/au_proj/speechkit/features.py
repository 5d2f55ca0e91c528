"""Log power spectrogram with torch.stft."""

import torch


def log_spectrogram(wav: torch.Tensor, n_fft: int, hop_length: int, win_length: int) -> torch.Tensor:
    """wav: (batch, samples) -> (batch, n_fft // 2 + 1, frames)."""
    window = torch.hann_window(win_length)
    spec = torch.stft(wav, n_fft, hop_length=hop_length, window=window, return_complex=True)
    return torch.log1p(spec.abs() ** 2)
