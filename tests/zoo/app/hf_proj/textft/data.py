"""jsonl shards streamed by an IterableDataset, split between DataLoader workers, and a padding collate."""

import glob
import json

import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class JsonlStream(IterableDataset):
    def __init__(self, pattern: str, tokenizer, label_field: str) -> None:
        self.files = sorted(glob.glob(pattern))
        self.tokenizer = tokenizer
        self.label_field = label_field

    def __iter__(self):
        info = get_worker_info()
        files = self.files if info is None else self.files[info.id :: info.num_workers]
        for path in files:
            with open(path) as f:
                for line in f:
                    record = json.loads(line)
                    ids = self.tokenizer.encode(record["text"])
                    yield ids, record[self.label_field]


class PadCollate:
    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer

    def __call__(self, samples):
        batch = self.tokenizer.pad([ids for ids, _ in samples])
        batch["labels"] = torch.tensor([label for _, label in samples])
        return batch


def make_loader(pattern: str, tokenizer, args, task_args) -> DataLoader:
    stream = JsonlStream(pattern, tokenizer, task_args.label_field)
    return DataLoader(
        stream, batch_size=args.batch_size, num_workers=args.num_workers, collate_fn=PadCollate(tokenizer)
    )
