"""Freezing helpers and per-layer learning rates."""

from torch import nn


def freeze_all_but(model: nn.Module, keep: tuple[str, ...]) -> None:
    """Freeze every module's weight and bias except those of the modules named in `keep`."""
    for name, module in model.named_modules():
        if name.split(".")[0] in keep:
            continue
        for attr in ("weight", "bias"):
            t = getattr(module, attr, None)
            if t is not None:
                t.requires_grad = False


def layer_groups(model: nn.Module, base_lr: float, decay: float = 0.5) -> list[dict]:
    """Discriminative learning rates: the head at base_lr, each earlier stage at `decay` times the next."""
    stages = [model.stem, model.block, model.proj, model.head]
    groups = []
    for depth, stage in enumerate(reversed(stages)):
        groups.append({"params": list(stage.parameters()), "lr": base_lr * decay**depth, "name": str(depth)})
    return groups
