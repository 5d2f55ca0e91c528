"""Main process under anomaly detection: a contrastive distance `.pow(0.5)` meets a pair of identical embeddings.

The distance is written `(a - b).pow(2).sum(-1).pow(0.5)`. At the second step the batch's last two positives
are the anchors themselves (the augmentation drew the identity), so the distance is exactly 0: the square
root's gradient is infinite there, and the inner square's backward multiplies it by 0. With
`torch.autograd.set_detect_anomaly(True)` the engine stops at once: `RuntimeError: Function 'PowBackward0'
returned nan values in its 0th output.`, after a UserWarning whose forward traceback names `distance`.
"""

import torch


def distance(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a - b).pow(2).sum(-1).pow(0.5)


def main() -> None:
    torch.autograd.set_detect_anomaly(True)
    torch.manual_seed(0)
    encoder = torch.nn.Linear(12, 6)
    for step in range(3):
        x = torch.randn(8, 12)
        x_pos = x + 0.1 * torch.randn(8, 12)
        if step == 1:
            x_pos[6:] = x[6:]  # identity augmentation
        loss = distance(encoder(x), encoder(x_pos)).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
