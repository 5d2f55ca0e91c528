"""A spawned evaluator process dies on torch.cat of mismatched predictions; the trainer waits on its queue for ever.

The trainer hands each checkpoint's weights to an evaluator process (torch.multiprocessing, spawn) and waits for
its score with `results.get()` (no timeout). The evaluator concatenates per-batch predictions; the last batch
(one sample) was squeezed to 2 dimensions: `RuntimeError: Tensors must have same number of dimensions: got 3 and
2`. The child exits 1 without putting a result; the main waits for ever.
"""

import torch
import torch.multiprocessing as mp


def evaluate(state: dict, results) -> None:
    model = torch.nn.Linear(8, 5)
    model.load_state_dict(state)
    preds = []
    for n in (4, 4, 1):
        with torch.no_grad():
            out = model(torch.randn(n, 3, 8))
        preds.append(out.squeeze(0) if n == 1 else out)
    score = torch.cat(preds).softmax(-1).amax(-1).mean().item()
    results.put(score)


def main() -> None:
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    model = torch.nn.Linear(8, 5)
    for epoch in range(2):
        loss = model(torch.randn(16, 3, 8)).pow(2).mean()
        loss.backward()
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
        proc = ctx.Process(target=evaluate, args=(model.state_dict(), results), name="evaluator")
        proc.start()
        score = results.get()
        proc.join()
        print(f"epoch {epoch} eval score {score:.4f}", flush=True)
