"""A token-level loss picks each target's log-probability with gather: the log-probs are (batch, classes) and
the targets a 1-D tensor of class ids, not unsqueezed to (batch, 1)."""

import torch
import torch.nn.functional as F


def picked_nll(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    logp = F.log_softmax(logits, dim=-1)
    return -logp.gather(1, targets).mean()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 5)
    x, targets = torch.randn(16, 8), torch.randint(0, 5, (16,))
    loss = picked_nll(model(x), targets)
    loss.backward()
    print(f"loss {loss.item():.4f}")
