"""Warmup settings, added later as a subclass of the optimizer's settings."""

from dataclasses import dataclass

from confkit2.fields import OptimConfig


@dataclass
class WarmupConfig(OptimConfig):
    warmup_steps: int
    peak_lr: float = 0.5
