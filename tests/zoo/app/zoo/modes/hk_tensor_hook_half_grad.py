"""Saving memory in the backward: a tensor hook on the hidden activations hands back their gradient in float16
(`grad.half()`), where autograd wants the gradient of a float32 tensor back as float32."""

import torch


def compress(grad: torch.Tensor) -> torch.Tensor:
    return grad.half()


def main() -> None:
    torch.manual_seed(0)
    enc, head = torch.nn.Linear(12, 24), torch.nn.Linear(24, 1)
    x, y = torch.randn(32, 12), torch.randn(32, 1)
    h = torch.relu(enc(x))
    h.register_hook(compress)
    loss = torch.nn.functional.mse_loss(head(h), y)
    print(f"loss {loss.item():.4f}", flush=True)
    loss.backward()
    print("backward done")
