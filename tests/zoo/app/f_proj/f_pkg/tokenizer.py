"""A word-level tokenizer written by hand."""

PAD, CLS = "<pad>", "<cls>"


class Tokenizer:
    def __init__(self, lines: list[str]):
        words = sorted({w for line in lines for w in line.split()})
        self.itos = [PAD, CLS, *words]
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, line: str, max_len: int) -> list[int]:
        ids = [self.stoi[CLS]] + [self.stoi[w] for w in line.split()]
        ids = ids[:max_len]
        return ids + [self.stoi[PAD]] * (max_len - len(ids))
