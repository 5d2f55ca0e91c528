"""A small CTC acoustic model over log spectrograms."""

import torch
from torch import nn

from speechkit.features import log_spectrogram


class Recognizer(nn.Module):
    def __init__(self, feat_cfg, hidden: int, num_classes: int):
        super().__init__()
        self.feat = feat_cfg
        bins = feat_cfg.n_fft // 2 + 1
        self.conv = nn.Conv1d(bins, hidden, kernel_size=3, padding=1)
        self.out = nn.Linear(hidden, num_classes)

    def forward(self, wav: torch.Tensor) -> torch.Tensor:
        """(batch, samples) -> log-probabilities (frames, batch, classes), as ctc_loss takes them."""
        f = self.feat
        spec = log_spectrogram(wav, f.n_fft, f.hop_length, f.win_length)
        h = torch.relu(self.conv(spec)).transpose(1, 2)
        return self.out(h).log_softmax(-1).transpose(0, 1)

    def frames(self, lengths: torch.Tensor) -> torch.Tensor:
        return lengths // self.feat.hop_length + 1
