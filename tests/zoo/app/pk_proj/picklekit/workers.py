"""DataLoaders with worker processes started by spawn (as on macOS and Windows)."""

from torch.utils.data import DataLoader, Dataset


def make_loader(dataset: Dataset, workers: int = 2) -> DataLoader:
    return DataLoader(dataset, batch_size=8, shuffle=True, num_workers=workers, multiprocessing_context="spawn")
