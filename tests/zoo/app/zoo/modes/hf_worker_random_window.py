"""Causal-LM fine-tuning on documents: each sample is a random window of seq_len + 1 tokens cut from one
tokenized document (the way GPTQ's calibration and many pretraining loaders sample), in 2 DataLoader workers.
The corpus's documents were all long until a short one (a title-only page) came in with the new crawl."""

import random

import torch
from torch.utils.data import DataLoader, Dataset

SEQ_LEN = 32


class WindowDataset(Dataset):
    def __init__(self, docs: list[list[int]]) -> None:
        self.docs = docs

    def __len__(self) -> int:
        return len(self.docs)

    def __getitem__(self, i: int) -> torch.Tensor:
        ids = self.docs[i]
        start = random.randint(0, len(ids) - SEQ_LEN - 1)
        return torch.tensor(ids[start : start + SEQ_LEN + 1])


def crawl() -> list[list[int]]:
    g = torch.Generator().manual_seed(0)
    docs = [torch.randint(5, 500, (int(n),), generator=g).tolist() for n in torch.randint(60, 400, (40,), generator=g)]
    docs[13] = docs[13][:9]  # a title-only page
    return docs


def main() -> None:
    loader = DataLoader(WindowDataset(crawl()), batch_size=4, num_workers=2)
    emb = torch.nn.Embedding(500, 16)
    head = torch.nn.Linear(16, 500)
    opt = torch.optim.AdamW([*emb.parameters(), *head.parameters()], lr=1e-3)
    for step, batch in enumerate(loader):
        logits = head(emb(batch[:, :-1]))
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 500), batch[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"step {step} loss {loss.item():.3f}", flush=True)
