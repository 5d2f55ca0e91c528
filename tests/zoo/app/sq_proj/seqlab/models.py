"""The models: an RNN classifier over packed sequences, an RNN encoder-decoder trained with teacher forcing,
and a Transformer encoder classifier with padding and causal masks."""

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from seqlab.vocab import PAD

CELLS = {"lstm": nn.LSTM, "gru": nn.GRU}


class RNNClassifier(nn.Module):
    def __init__(
        self, vocab_size: int, cell: str, dim: int = 32, total_length: int | None = None, last_from_packed: bool = False
    ) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.rnn = CELLS[cell](dim, dim, batch_first=True)
        self.head = nn.Linear(dim, 2)
        self.total_length, self.last_from_packed = total_length, last_from_packed

    def forward(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        packed = pack_padded_sequence(self.embed(ids), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed)
        if self.last_from_packed:
            return self.head(out[:, -1])
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=self.total_length)
        last = out[torch.arange(len(lengths)), lengths - 1]
        return self.head(last)


class Seq2Seq(nn.Module):
    def __init__(self, vocab_size: int, cell: str, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.enc = CELLS[cell](dim, dim, batch_first=True)
        self.dec = CELLS[cell](dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab_size)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        _, state = self.enc(self.embed(src))
        logits = []
        for t in range(tgt.size(1) - 1):
            step = self.embed(tgt[:, t])  # teacher forcing: the gold token of step t
            out, state = self.dec(step, state)
            logits.append(self.out(out))
        return torch.stack(logits, 1)


class AttnClassifier(nn.Module):
    def __init__(self, vocab_size: int, dim: int = 32, heads: int = 4, causal: str = "none") -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, 2)
        self.causal = causal

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        pad = ids == PAD
        t = ids.size(1)
        if self.causal == "per_sample":
            # one mask per sample: causal and padded keys together
            causal = torch.triu(torch.ones(t, t, dtype=torch.bool), 1)
            mask = causal.unsqueeze(0) | pad.unsqueeze(1)
            h = self.encoder(self.embed(ids), mask=mask)
        elif self.causal == "hint":
            h = self.encoder(self.embed(ids), src_key_padding_mask=pad, is_causal=True)
        else:
            h = self.encoder(self.embed(ids), src_key_padding_mask=pad)
        return self.head(h[:, 0])
