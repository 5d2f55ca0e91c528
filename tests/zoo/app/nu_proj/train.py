"""A trainer meeting numerical trouble on the CPU: `python train.py --case NAME` (tests/zoo/HELDOUT76.md)."""

import argparse  # noqa: I001 (numkit is this project's own package, imported from its folder)

import torch
from torch import nn

from numkit import linalg, losses, train


def case_nu_acos_anomaly() -> None:
    """Direction regression by the angle between unit vectors, the model started at the identity, NaNs hunted with
    anomaly detection on."""
    torch.manual_seed(0)
    x = nn.functional.normalize(torch.randn(64, 8), dim=1)
    model = nn.Linear(8, 8)
    with torch.no_grad():
        model.weight.copy_(torch.eye(8))
        model.bias.zero_()
    batches = [(x[i : i + 16], x[i : i + 16]) for i in range(0, 64, 16)]
    train.fit(model, batches, losses.angular_loss, anomaly=True)


def case_nu_inv_singular() -> None:
    """Out-of-distribution scores by Mahalanobis distance; the last feature is a padding channel, always 0."""
    torch.manual_seed(0)
    feats = torch.cat([torch.randn(200, 7), torch.zeros(200, 1)], dim=1)
    mu, precision = linalg.mahalanobis_fit(feats)
    print(f"scores {linalg.mahalanobis(feats[:4], mu, precision)}", flush=True)


def case_nu_complex_spectral() -> None:
    """A denoiser trained on the error of the spectra, the complex differences squared, not their magnitudes."""
    torch.manual_seed(0)
    t = torch.linspace(0, 1, 32)
    clean = torch.sin(2 * torch.pi * 3 * t).repeat(16, 1)
    noisy = clean + 0.1 * torch.randn(16, 32)
    train.fit(nn.Linear(32, 32), [(noisy, clean)], losses.spectral_loss)


def case_nu_softmax_overflow() -> None:
    """A classifier through the hand-written softmax; the third batch comes unnormalised (0-255 pixels)."""
    torch.manual_seed(0)
    model = nn.Linear(16, 4)
    batches = []
    for step in range(4):
        x = torch.rand(8, 16)
        batches.append((x * 255 if step == 2 else x, torch.randint(0, 4, (8,))))
    train.fit(model, batches, losses.nll, check_finite=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    args = parser.parse_args()
    globals()[f"case_{args.case}"]()


if __name__ == "__main__":
    main()
