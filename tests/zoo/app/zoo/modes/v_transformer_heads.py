"""A TransformerEncoder whose width comes from the feature count (a 3-axis accelerometer window flattened to 30
features) while its head count (4) was copied from a text model; 30 is not divisible by 4."""

import torch

FEATURES = 3 * 10  # 3 axes x 10 samples a window


def build_encoder(width: int, heads: int = 4) -> torch.nn.TransformerEncoder:
    layer = torch.nn.TransformerEncoderLayer(d_model=width, nhead=heads, batch_first=True)
    return torch.nn.TransformerEncoder(layer, num_layers=2)


def main() -> None:
    encoder = build_encoder(FEATURES)
    print(encoder(torch.randn(8, 5, FEATURES)).shape)
