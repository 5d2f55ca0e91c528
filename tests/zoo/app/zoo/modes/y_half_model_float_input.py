"""A model cast to half precision to save memory (`model.half()`) fed the loader's float32 images:
the convolution refuses mixed input and parameter types (Kosinkadink/ComfyUI-Advanced-ControlNet#105,
nvidia-cosmos/cosmos-transfer1#137)."""

import os

import torch

from zoo.data import quiet_torch


def classify(model, images):
    return model(images).argmax(dim=1)


def main() -> None:
    quiet_torch()
    device = os.environ.get("ZOO_Y_DEVICE", "cuda")  # cpu: a check of the Python on a machine without CUDA
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten()
    )
    model = model.to(device).half().eval()  # half weights
    images = torch.rand(4, 3, 32, 32, device=device)  # the bug: float32 images, never .half()
    with torch.no_grad():
        print(classify(model, images).tolist())
