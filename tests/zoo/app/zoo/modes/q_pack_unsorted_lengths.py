"""Variable-length sequences packed for an LSTM with their lengths in the dataset's order, not sorted:
pack_padded_sequence refuses them (enforce_sorted defaults to True)."""

import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence


def encode(lstm: torch.nn.LSTM, seqs: list) -> torch.Tensor:
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True)
    packed = pack_padded_sequence(padded, lengths, batch_first=True)
    _, (h, _) = lstm(packed)
    return h[-1]


def main() -> None:
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(8, 16, batch_first=True)
    seqs = [torch.randn(n, 8) for n in (3, 7, 5, 2)]
    print(encode(lstm, seqs).shape)
