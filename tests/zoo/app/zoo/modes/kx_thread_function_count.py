"""A fine-tuning thread's custom autograd Function returns one gradient for two inputs; the main then divides by zero.

`ScaledClip.forward(ctx, x, scale)` takes two inputs; its backward returns only `grad * scale` (no `None` for
`scale`). The engine refuses it in the trainer thread's `loss.backward()`: `RuntimeError: function
ScaledClipBackward returned an incorrect number of gradients (expected 2, got 1)` (`Exception in thread
finetune`). The thread ends with no loss recorded; the main's `sum(losses) / len(losses)` raises
ZeroDivisionError.
"""

import threading

import torch


class ScaledClip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, scale: float) -> torch.Tensor:
        ctx.scale = scale
        return x.clamp(-1, 1) * scale

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        return grad * ctx.scale


def finetune(model: torch.nn.Module, losses: list[float]) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(4):
        x = torch.randn(16, 8)
        loss = ScaledClip.apply(model(x), 0.5).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())


def main() -> None:
    model = torch.nn.Linear(8, 4)
    losses: list[float] = []
    t = threading.Thread(target=finetune, args=(model, losses), name="finetune")
    t.start()
    t.join()
    mean_loss = sum(losses) / len(losses)
    print(f"fine-tuned: mean loss {mean_loss:.4f}", flush=True)
