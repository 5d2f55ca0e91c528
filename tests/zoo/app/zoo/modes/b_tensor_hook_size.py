"""Per-sample gradient clipping with a tensor hook on the activations: the hook returns the clipped gradient's
per-feature norm sum instead of the clipped gradient itself (a reduction left in from debugging)."""

import torch


def clip_hook(grad: torch.Tensor) -> torch.Tensor:
    norms = grad.norm(dim=1, keepdim=True).clamp(min=1.0)
    return (grad / norms).sum(dim=0)


def main() -> None:
    torch.manual_seed(0)
    encoder, head = torch.nn.Linear(10, 6), torch.nn.Linear(6, 1)
    x, y = torch.randn(16, 10), torch.randn(16, 1)
    h = encoder(x)
    h.register_hook(clip_hook)
    loss = torch.nn.functional.mse_loss(head(torch.tanh(h)), y)
    loss.backward()
    print(f"loss {loss.item():.4f}")
