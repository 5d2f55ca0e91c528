"""A GAN discriminator whose layer factory already wraps each Linear in spectral_norm; the training script
then applies spectral_norm to every Linear of the model again."""

from torch import nn
from torch.nn.utils import spectral_norm


def sn_linear(i: int, o: int) -> nn.Module:
    return spectral_norm(nn.Linear(i, o))


def discriminator() -> nn.Module:
    return nn.Sequential(sn_linear(64, 128), nn.LeakyReLU(0.2), sn_linear(128, 1))


def apply_sn(model: nn.Module) -> nn.Module:
    for layer in model.modules():
        if isinstance(layer, nn.Linear):
            spectral_norm(layer)
    return model


def main() -> None:
    disc = apply_sn(discriminator())
    print(disc)
