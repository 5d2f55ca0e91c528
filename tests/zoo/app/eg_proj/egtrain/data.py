"""The labelled dataset: label names looked up in the class list, errors carried with their shard and line."""

import torch
from torch.utils.data import DataLoader, Dataset

CLASSES = ["cat", "dog", "bird", "fish"]


class LabelError(ValueError):
    pass


def rows(n: int) -> list[dict]:
    out = [{"x": [float(i)] * 8, "label": CLASSES[i % 4], "line": 100 + i} for i in range(n)]
    out[13]["label"] = "Cat"  # one annotator's capitalisation
    return out


class Labelled(Dataset):
    def __init__(self, records: list[dict], shard: str):
        self.records, self.shard = records, shard

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, i: int):
        rec = self.records[i]
        try:
            y = CLASSES.index(rec["label"])
        except ValueError as e:
            err = LabelError(f"sample {i}: unknown label {rec['label']!r}")
            err.add_note(f"shard {self.shard}, line {rec['line']}")
            raise err from e
        return torch.tensor(rec["x"]), y


def loader(n: int = 16) -> DataLoader:
    return DataLoader(Labelled(rows(n), "labels-000.jsonl"), batch_size=4, num_workers=2)
