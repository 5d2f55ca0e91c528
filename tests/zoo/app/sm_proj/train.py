"""Train a bag-of-embeddings intent classifier: `python train.py --case NAME`."""

import argparse

import numpy as np
import torch
from samplekit.collate import pad_batch
from samplekit.datasets import N_INTENTS, VOCAB, Utterances, training_corpus
from samplekit.samplers import balanced_sampler
from torch.utils.data import DataLoader


def make_loader(case: str) -> DataLoader:
    if case == "concat_stream":
        return DataLoader(training_corpus(with_stream=True), batch_size=8, collate_fn=pad_batch)
    if case == "default_collate_ragged":
        return DataLoader(Utterances(48), batch_size=8, num_workers=2)
    if case == "balanced_onehot":
        data = Utterances(48)
        return DataLoader(data, batch_size=8, sampler=balanced_sampler(data), collate_fn=pad_batch)
    if case == "numpy_generator":
        rng = np.random.default_rng(7)
        return DataLoader(Utterances(48), batch_size=8, shuffle=True, generator=rng, collate_fn=pad_batch)
    raise SystemExit(f"unknown case {case}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = torch.nn.EmbeddingBag(VOCAB, N_INTENTS, padding_idx=0)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = make_loader(args.case)
    print(f"case {args.case}: training", flush=True)
    for epoch in range(args.epochs):
        total = 0.0
        for batch in loader:
            loss = torch.nn.functional.cross_entropy(model(batch["ids"]), batch["label"])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total:.3f}", flush=True)


if __name__ == "__main__":
    main()
