"""The spectral norm of a layer estimated by power iteration until the estimate settles; the layer's weights hold a
NaN (from a step on a NaN loss), so the relative change is NaN, never below the tolerance, and the loop never ends."""

import torch


def spectral_norm(w: torch.Tensor, tol: float = 1e-4) -> float:
    u = torch.ones(w.shape[0]) / w.shape[0] ** 0.5
    sigma = torch.tensor(0.0)
    converged = False
    while not converged:
        v = w.T @ u
        v = v / v.norm()
        u = w @ v
        new = u.norm()
        u = u / new
        converged = bool((new - sigma).abs() < tol * new)
        sigma = new
    return sigma.item()


def main() -> None:
    torch.manual_seed(0)
    w = torch.randn(32, 32)
    w[3, 5] = float("nan")
    print("estimating the spectral norm of layer 2", flush=True)
    print(f"sigma {spectral_norm(w):.3f}", flush=True)
