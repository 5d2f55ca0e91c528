"""Packed sequences are split back into documents by their lengths; the lengths are counted from the raw token
lists, before the separator token appended to each document was added to the packed tensor."""

import torch


def pack(docs: list[list[int]], sep: int) -> torch.Tensor:
    return torch.tensor([t for doc in docs for t in doc + [sep]])


def main() -> None:
    docs = [[5, 6, 7], [8, 9], [10, 11, 12, 13]]
    packed = pack(docs, sep=0)
    hidden = torch.randn(len(packed), 4)
    lengths = [len(d) for d in docs]
    per_doc = torch.split(hidden, lengths)
    print([tuple(p.shape) for p in per_doc])
