"""A segmentation mask's void label (255) used as an index into the per-class weights, on CUDA: the
indexing kernel's device-side assert, heard by the host only at the next convolution, whose cuDNN call
fails (`cuDNN error: CUDNN_STATUS_INTERNAL_ERROR`): the forums' "cuDNN error after my labels" reports.
"""

import torch

from zoo.data import quiet_torch


def pixel_weights(class_weights, mask):
    return class_weights[mask]  # the launch that fails: 255 of 4 classes


def main() -> None:
    quiet_torch()
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(8, 4, 1))
    model = model.cuda()
    class_weights = torch.tensor([1.0, 2.0, 2.0, 4.0], device="cuda")
    image = torch.randn(2, 3, 32, 32, device="cuda")
    mask = torch.randint(0, 4, (2, 32, 32), device="cuda")
    mask[:, :4, :4] = 255  # the void label, never remapped
    weights = pixel_weights(class_weights, mask)
    logits = model(image)  # cuDNN's convolution: the host's first call after the assert
    loss = (torch.nn.functional.cross_entropy(logits, mask.clamp(max=3), reduction="none") * weights).mean()
    print(float(loss))
