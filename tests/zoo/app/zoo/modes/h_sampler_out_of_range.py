"""A weighted sampler built from the label file of the full dataset, used on the filtered dataset: it yields
indices past the dataset's end, and indexing the tensors fails."""

import torch
from torch.utils.data import DataLoader, Sampler, TensorDataset


class ClassBalanced(Sampler):
    def __init__(self, num_labels: int):
        self.num_labels = num_labels  # counted before filtering

    def __iter__(self):
        return iter(range(self.num_labels - 1, -1, -1))

    def __len__(self):
        return self.num_labels


def main() -> None:
    torch.set_num_threads(1)
    data = TensorDataset(torch.randn(20, 4), torch.arange(20))  # 20 left after filtering 24
    for _x, y in DataLoader(data, batch_size=4, sampler=ClassBalanced(24)):
        print(y)
