"""A collate_fn that pads variable-length feature sequences with pad_sequence; one utterance's features were
extracted with 13 coefficients where the rest have 40, so the trailing dims differ."""

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader


class Utterances(torch.utils.data.Dataset):
    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> torch.Tensor:
        coefficients = 13 if i == 5 else 40
        return torch.randn(20 + 3 * i, coefficients)


def collate(batch: list) -> torch.Tensor:
    return pad_sequence(batch, batch_first=True)


def main() -> None:
    torch.manual_seed(0)
    for batch in DataLoader(Utterances(), batch_size=4, collate_fn=collate):
        print(batch.shape)
