"""An RGB backbone (Conv2d with 3 input channels) fed grayscale images of shape [N, 1, 28, 28]: the convolution
refuses the channel count."""

import torch


class SmallCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, kernel_size=3)
        self.head = torch.nn.Linear(8, 10)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        return self.head(h.mean(dim=(2, 3)))


def main() -> None:
    torch.manual_seed(0)
    model = SmallCNN()
    images = torch.rand(4, 1, 28, 28)  # the digits are grayscale
    print(model(images).argmax(1))
