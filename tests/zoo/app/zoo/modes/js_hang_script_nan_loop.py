"""A scripted Newton iteration for an inverse square root, run until the update is small; a zero variance makes it NaN."""

import torch


@torch.jit.script
def rsqrt_newton(v: torch.Tensor, tol: float = 1e-6) -> torch.Tensor:
    y = torch.ones_like(v)
    delta = torch.ones_like(v)
    while not bool((delta.abs() < tol).all()):
        new = y * (1.5 - 0.5 * v * y * y)
        delta = new - y
        y = new
    return y


def main() -> None:
    torch.set_num_threads(1)
    feats = torch.randn(64, 4)
    feats[:, 2] = float("nan")  # a sensor column that was all missing
    print(f"scales {rsqrt_newton(feats[:, :2].var(0)).tolist()}", flush=True)
    print("normalising every feature column", flush=True)
    print(rsqrt_newton(feats.var(0)))
