"""An exponential moving average of the model's weights, kept in a dtype of its own to save memory."""

import torch


class EMA:
    def __init__(self, model: torch.nn.Module, decay: float, dtype: str = "float32"):
        self.decay = decay
        self.shadow = {k: v.detach().clone().to(getattr(torch, dtype)) for k, v in model.state_dict().items()}

    @torch.no_grad()
    def update(self, model: torch.nn.Module) -> None:
        for name, value in model.state_dict().items():
            self.shadow[name].lerp_(value, 1.0 - self.decay)
