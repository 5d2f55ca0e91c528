"""A collate_fn that returns a dict of lists (token ids of each sentence, unpadded); the training step
turns the batch into a tensor: ValueError: expected sequence of length N at dim 1 (got M)."""

import torch
from torch.utils.data import DataLoader

SENTENCES = [[3, 8, 1, 9, 4], [7, 2, 6], [5, 5, 1, 2], [9, 3]]


def collate(items):
    return {"input_ids": [s for s in items], "lengths": [len(s) for s in items]}


def main() -> None:
    torch.set_num_threads(1)
    embed = torch.nn.Embedding(10, 4)
    for batch in DataLoader(SENTENCES, batch_size=2, collate_fn=collate):
        ids = torch.tensor(batch["input_ids"])
        embed(ids).mean().backward()
