"""Augmentation settings, added later: the multi-scale crop's scales as a list default."""

from dataclasses import dataclass


@dataclass
class AugmentConfig:
    flip: bool = True
    scales: list = [0.5, 0.75, 1.0]
