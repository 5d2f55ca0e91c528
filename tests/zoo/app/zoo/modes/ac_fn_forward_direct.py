"""A custom autograd.Function (a straight-through clamp for quantisation-aware training) called through its
`forward` directly, `ClampSTE.forward(None, x, ...)`, as a refactor turned `ClampSTE.apply(x, ...)` into, so its
`ctx` is None and `ctx.save_for_backward` fails."""

import torch


class ClampSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, low: float, high: float) -> torch.Tensor:
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return x.clamp(low, high)

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        (x,) = ctx.saved_tensors
        inside = (x >= ctx.low) & (x <= ctx.high)
        return grad * inside, None, None


class QuantLinear(torch.nn.Linear):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w = ClampSTE.forward(None, self.weight, -0.1, 0.1)
        return torch.nn.functional.linear(x, w, self.bias)


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(QuantLinear(16, 32), torch.nn.ReLU(), QuantLinear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print("quantisation-aware training", flush=True)
    for step in range(3):
        x, y = torch.randn(8, 16), torch.randn(8, 1)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
