"""Activation probes: hooks the program puts on its layers to watch, clean or keep what passes through."""

import torch
from torch import nn

ACT_BUDGET_MB = 0.01


def scale_inputs(module: nn.Module, args: tuple) -> tuple:
    """A pre-hook that standardises the features before the encoder (written for a one-argument encoder)."""
    x = args[0]
    return ((x - x.mean()) / (x.std() + 1e-5),)


class ActivationCache:
    """Keeps the encoder's outputs for an offline analysis at the end of training."""

    def __init__(self) -> None:
        self.acts: list[torch.Tensor] = []

    def __call__(self, module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
        self.acts.append(output)
        self.check()

    def check(self) -> None:
        mb = sum(a.numel() * a.element_size() for a in self.acts) / 2**20
        if mb > ACT_BUDGET_MB:
            raise RuntimeError(f"activation cache over budget: {mb:.3f} MB > {ACT_BUDGET_MB} MB")


class HeadProbe:
    """Records the head's logits each step, for the calibration plot."""

    def __init__(self) -> None:
        self.logits: list[torch.Tensor] = []

    def __call__(self, module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
        self.logits.append(output.detach())


def forgive_head_keys(module: nn.Module, incompatible_keys) -> None:
    """A load_state_dict post-hook: a new head is expected to be missing from a backbone checkpoint."""
    incompatible_keys.missing_keys = [k for k in incompatible_keys.missing_keys if not k.startswith("head.")]
