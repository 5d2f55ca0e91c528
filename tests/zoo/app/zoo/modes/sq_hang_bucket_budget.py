"""A token-budget batch sampler for variable-length sequences: each batch is filled from the pending
sequences until the padded size (longest x count) would pass `max_tokens`. One transcript is longer than the
budget on its own, so it never fits and the sampler's loop goes round for ever."""

import random

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Sampler


class TokenBudgetSampler(Sampler):
    def __init__(self, lengths: list[int], max_tokens: int) -> None:
        self.lengths, self.max_tokens = lengths, max_tokens

    def __iter__(self):
        pending = sorted(range(len(self.lengths)), key=self.lengths.__getitem__)
        while pending:
            batch, longest = [], 0
            for i in list(pending):
                longest2 = max(longest, self.lengths[i])
                if longest2 * (len(batch) + 1) > self.max_tokens:
                    break
                batch.append(i)
                longest = longest2
                pending.remove(i)
            if batch:
                yield batch


def main() -> None:
    rng = random.Random(0)
    lengths = [rng.randint(5, 60) for _ in range(200)] + [300]  # one long transcript
    data = [torch.ones(n) for n in lengths]
    loader = DataLoader(data, batch_sampler=TokenBudgetSampler(lengths, max_tokens=256), collate_fn=pad_sequence)
    print(f"{len(data)} sequences, budget 256 tokens a batch", flush=True)
    for step, batch in enumerate(loader):
        if step % 10 == 0:
            print(f"batch {step}: {tuple(batch.shape)}", flush=True)
    print("epoch done")
