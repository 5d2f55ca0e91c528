"""A word vocabulary with four specials: <pad> 0, <bos> 1, <eos> 2, <unk> 3."""

PAD, BOS, EOS, UNK = 0, 1, 2, 3
SPECIALS = ["<pad>", "<bos>", "<eos>", "<unk>"]


class Vocab:
    def __init__(self, lines: list[str]) -> None:
        words = sorted({w for line in lines for w in line.split()})
        self.itos = SPECIALS + words
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, line: str) -> list[int]:
        return [self.stoi.get(w, UNK) for w in line.split()]
