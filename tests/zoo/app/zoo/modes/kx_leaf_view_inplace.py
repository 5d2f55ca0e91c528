"""Main process: the init code zeroes the padding row of an embedding in place, outside `torch.no_grad()`.

`emb.weight[PAD].zero_()` writes through a view of a leaf that requires grad; autograd refuses it:
`RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.`
"""

import torch

PAD = 0


def build(vocab: int, dim: int) -> torch.nn.Module:
    model = torch.nn.Sequential(torch.nn.Embedding(vocab, dim), torch.nn.Flatten(), torch.nn.Linear(4 * dim, 2))
    emb = model[0]
    torch.nn.init.normal_(emb.weight, std=0.02)
    emb.weight[PAD].zero_()
    return model


def main() -> None:
    model = build(100, 8)
    tokens = torch.randint(1, 100, (16, 4))
    for step in range(3):
        loss = model(tokens).logsumexp(1).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
