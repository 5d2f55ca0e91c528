"""Sampling with temperature 0 (meant as greedy): logits / 0 are infinite, softmax gives NaN, and CUDA's
multinomial asserts on the device, in an asynchronous check (kvcache-ai/ktransformers#465,
ProjectD-AI/llama_inference#11)."""

import torch

from zoo.data import quiet_torch


class TinyLM(torch.nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim)
        self.head = torch.nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.embed(ids))


def generate(model, ids, steps, temperature):
    for _ in range(steps):
        logits = model(ids)[:, -1]
        probs = torch.softmax(logits / temperature, dim=-1)  # temperature 0: inf / nan
        next_id = torch.multinomial(probs, 1)
        ids = torch.cat([ids, next_id], dim=1)
    return ids


def main() -> None:
    quiet_torch()
    torch.manual_seed(0)
    model = TinyLM().cuda().eval()
    prompt = torch.randint(0, 100, (4, 8), device="cuda")
    with torch.no_grad():
        out = generate(model, prompt, steps=8, temperature=0.0)  # the bug: 0 meant "greedy"
    print(out.tolist())
