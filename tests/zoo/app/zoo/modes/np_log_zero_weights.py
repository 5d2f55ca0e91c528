"""Class weights by inverse log frequency, `-np.log(freq)`, for a label set where one class never occurs in
the training split: log(0) is -inf, the normalised weights NaN, and the program's own check refuses them."""

import numpy as np
import torch


def class_weights(labels: np.ndarray, num_classes: int) -> torch.Tensor:
    freq = np.bincount(labels, minlength=num_classes) / len(labels)
    w = -np.log(freq)
    w = w / w.sum()
    return torch.from_numpy(w).float()


def main() -> None:
    labels = np.random.default_rng(0).integers(0, 4, size=200)  # classes 0-3 present, class 4 never
    weights = class_weights(labels, num_classes=5)
    print("weights", weights.tolist(), flush=True)
    if not torch.isfinite(weights).all():
        raise ValueError(f"class weights are not finite: {weights.tolist()}")
