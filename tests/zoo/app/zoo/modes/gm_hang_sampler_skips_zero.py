"""A strided DDIM-style sampling loop, `while t != 0: ... t -= stride`, over a 1000-step cosine schedule with
30 sampling steps: stride 1000 // 30 = 33 from t = 999 passes 0 (999 - 30 * 33 = 9, then -24) and never meets
it; the schedule is a formula of t, so negative t raise nothing, and the loop runs for ever."""

import math

import torch

T = 1000


def alpha_bar(t: int, s: float = 0.008) -> float:
    return math.cos((t / T + s) / (1 + s) * math.pi / 2) ** 2


@torch.no_grad()
def sample(model: torch.nn.Module, n_steps: int) -> torch.Tensor:
    x = torch.randn(4, 64)
    stride = T // n_steps
    t = T - 1
    while t != 0:
        ab, ab_prev = alpha_bar(t), alpha_bar(max(t - stride, 0))
        eps = model(x)
        x0 = (x - math.sqrt(max(1 - ab, 0.0)) * eps) / math.sqrt(max(ab, 1e-8))
        x = math.sqrt(ab_prev) * x0.clamp(-1, 1) + math.sqrt(max(1 - ab_prev, 0.0)) * eps
        t -= stride
    return x


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.Tanh())
    print("sampling 30 steps", flush=True)
    x = sample(model, 30)
    print(f"done: {x.mean().item():.4f}", flush=True)
