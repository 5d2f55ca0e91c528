"""A DataLoader (2 workers) over annotation rows; a row whose label is missing is asked of the user with input()
("label for sample N?"), as the annotator did at a terminal. In a batch job the worker's stdin is empty (a
multiprocessing child reads os.devnull), so worker 0 gets EOF at sample 3."""

import torch
from torch.utils.data import DataLoader, Dataset

LABELS = [0, 1, 2, None, 1, 0, 2, 1, 0, 1, 2, 0, 1, 2, 0, 1]


class Annotated(Dataset):
    def __len__(self) -> int:
        return len(LABELS)

    def __getitem__(self, i: int):
        label = LABELS[i]
        if label is None:
            label = int(input(f"label for sample {i}? "))
        return torch.full((4,), float(i)), label


def main() -> None:
    loader = DataLoader(Annotated(), batch_size=4, num_workers=2)
    model = torch.nn.Linear(4, 3)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        print(f"step {step} loss {loss.item():.4f}", flush=True)
