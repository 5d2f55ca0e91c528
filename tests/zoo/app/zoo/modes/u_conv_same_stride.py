"""A 1-D convolutional encoder ported from Keras (`padding="same"`, `strides=2`): torch's Conv1d accepts
padding="same" only for stride 1 and refuses it when the layer is built."""

import torch


def encoder(channels: int) -> torch.nn.Sequential:
    return torch.nn.Sequential(
        torch.nn.Conv1d(channels, 32, kernel_size=5, padding="same"),
        torch.nn.ReLU(),
        torch.nn.Conv1d(32, 64, kernel_size=5, stride=2, padding="same"),
        torch.nn.ReLU(),
    )


def main() -> None:
    net = encoder(8)
    print(net(torch.randn(2, 8, 64)).shape)
