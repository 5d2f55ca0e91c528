"""Sampling from a small bigram language model until the end-of-sequence token, with no limit on new tokens
(`max_new_tokens=None`, as the demo's default). The vocabulary calls it "</s>"; the generation settings, copied
from another model's, name "[EOS]", whose id is looked up with a default of -1, so no token ever ends the loop."""

import torch

WORDS = "<s> </s> the a model film story plot actor scene music ending was good bad slow fast funny".split()


def fit_bigrams(vocab: dict[str, int]) -> torch.Tensor:
    g = torch.Generator().manual_seed(0)
    counts = torch.ones(len(vocab), len(vocab))
    for _ in range(200):
        sent = torch.randint(2, len(vocab), (8,), generator=g).tolist()
        for a, b in zip([0] + sent, sent + [1]):
            counts[a, b] += 1
    return counts / counts.sum(1, keepdim=True)


def generate(probs: torch.Tensor, bos_id: int, eos_id: int, max_new_tokens=None) -> list[int]:
    g = torch.Generator().manual_seed(1)
    context = [bos_id]
    n = 0
    while True:
        logits = probs[context[-1]].log()
        top = logits.topk(5)
        next_id = top.indices[torch.multinomial(top.values.softmax(-1), 1, generator=g)].item()
        context = (context + [next_id])[-64:]
        n += 1
        if next_id == eos_id or (max_new_tokens is not None and n >= max_new_tokens):
            return context


def main() -> None:
    vocab = {w: i for i, w in enumerate(WORDS)}
    probs = fit_bigrams(vocab)
    settings = {"bos_token": "<s>", "eos_token": "[EOS]", "max_new_tokens": None}
    eos_id = vocab.get(settings["eos_token"], -1)
    print(f"generating a sample (eos id {eos_id})", flush=True)
    out = generate(probs, vocab[settings["bos_token"]], eos_id, settings["max_new_tokens"])
    print(" ".join(WORDS[i] for i in out), flush=True)
