"""Variable-length token sequences, their collate and an LSTM tagger."""

import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import Dataset

MAX_LEN = 48  # longer utterances are cut to keep batches small


class Utterances(Dataset):
    def __init__(self, n: int = 64):
        g = torch.Generator().manual_seed(0)
        lengths = torch.randint(8, 40, (n,), generator=g)
        lengths[21] = 75  # one long utterance in the corpus
        self.seqs = [torch.randint(1, 100, (int(k),), generator=g) for k in lengths]

    def __len__(self) -> int:
        return len(self.seqs)

    def __getitem__(self, i: int):
        return self.seqs[i]


def collate_capped(batch):
    lengths = torch.tensor([len(s) for s in batch])
    padded = torch.zeros(len(batch), MAX_LEN, dtype=torch.long)
    for row, seq in enumerate(batch):
        seq = seq[:MAX_LEN]
        padded[row, : len(seq)] = seq
    return padded, lengths


class Tagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(100, 16)
        self.rnn = torch.nn.LSTM(16, 32, batch_first=True)
        self.out = torch.nn.Linear(32, 5)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        hidden, _ = self.rnn(packed)
        hidden, _ = pad_packed_sequence(hidden, batch_first=True)
        return self.out(hidden)
