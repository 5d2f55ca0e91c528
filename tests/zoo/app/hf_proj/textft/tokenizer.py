"""A word-level tokenizer with a vocabulary file, one token a line (like a BERT vocab.txt)."""

import re

import torch


class WordTokenizer:
    def __init__(self, vocab_file: str, max_length: int) -> None:
        with open(vocab_file) as f:
            words = [line.rstrip("\n") for line in f]
        self.vocab = {w: i for i, w in enumerate(words) if w}
        self.inverse = {i: w for w, i in self.vocab.items()}
        self.pad_id = self.vocab.get("[PAD]")
        self.unk_id = self.vocab["[UNK]"]
        self.bos_id = self.vocab["[BOS]"]
        self.eos_id = self.vocab["[EOS]"]
        self.max_length = max_length

    def __len__(self) -> int:
        return len(self.vocab)

    def tokenize(self, text: str) -> list[str]:
        return re.findall(r"\w+|[^\w\s]", text.lower())

    def encode(self, text: str) -> list[int]:
        ids = [self.vocab.get(t, self.unk_id) for t in self.tokenize(text)]
        return [self.bos_id] + ids[: self.max_length - 2] + [self.eos_id]

    def decode(self, ids: list[int]) -> str:
        return " ".join(self.inverse.get(i, "[UNK]") for i in ids)

    def pad(self, batch: list[list[int]]) -> dict:
        longest = max(len(ids) for ids in batch)
        input_ids = [ids + [self.pad_id] * (longest - len(ids)) for ids in batch]
        mask = [[1] * len(ids) + [0] * (longest - len(ids)) for ids in batch]
        return {"input_ids": torch.tensor(input_ids), "attention_mask": torch.tensor(mask)}
