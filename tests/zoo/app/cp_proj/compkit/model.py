"""The classifier: an input projection, an optional custom-op stage, a head."""

import torch

from compkit import ops


@torch.compiler.disable
def log_activation_stats(h: torch.Tensor) -> None:
    """Debug statistics, kept out of the compiled graph on purpose."""
    print(f"act mean {h.mean().item():.3f} std {h.std().item():.3f}", flush=True)


class Classifier(torch.nn.Module):
    def __init__(self, d_in: int = 16, d_hidden: int = 32, n_classes: int = 4, stage: str = "none") -> None:
        super().__init__()
        self.stage = stage
        self.proj = torch.nn.Linear(d_in, d_hidden)
        d_head = d_hidden // 2 if stage == "pool" else d_hidden
        self.head = torch.nn.Linear(d_head, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.proj(x))
        if self.stage == "pool":
            h = ops.pair_pool(h)
        elif self.stage == "clip":
            h = ops.clip_features(h, 2.0)
        elif self.stage == "stats":
            log_activation_stats(h)
        return self.head(h)


class SeqClassifier(torch.nn.Module):
    """Mean over a variable-length sequence of 16-wide frames, then the classifier."""

    def __init__(self) -> None:
        super().__init__()
        self.frame = torch.nn.Linear(16, 16)
        self.cls = Classifier()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.cls(torch.tanh(self.frame(x)).mean(1))
