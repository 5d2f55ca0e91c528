"""A per-layer gradient report made in a child process (multiprocessing, spawn) after training: it reads `.grad`
of the trunk's output activations, non-leaf tensors whose gradient autograd does not keep (no `retain_grad()`),
so `.grad` is None (with torch's UserWarning) and the report's `.norm()` fails in the child; the main then finds
the child's exit status."""

import multiprocessing as mp

import torch


def build() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.ModuleDict(
        {"trunk": torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU()), "head": torch.nn.Linear(32, 1)}
    )


def grad_report(model: torch.nn.Module) -> None:
    x = torch.randn(64, 16)
    h = model["trunk"](x)
    model["head"](h).pow(2).mean().backward()
    print(f"activation grad norm {h.grad.norm():.4f}", flush=True)


def main() -> None:
    model = build()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        x, y = torch.randn(32, 16), torch.randn(32, 1)
        loss = torch.nn.functional.mse_loss(model["head"](model["trunk"](x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
    child = mp.get_context("spawn").Process(target=grad_report, args=(model,), name="grad-report")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"the gradient report exited with {child.exitcode}")
