"""A feature cache that does not keep its entries alive: the trainer's prefetch holds them."""

import weakref

import torch


class Entry:
    def __init__(self, key: str, features: torch.Tensor):
        self.key = key
        self.features = features
        self.on_evict = self.release  # a bound method: the entry refers to itself

    def release(self) -> None:
        self.features = None


class FeatureCache:
    def __init__(self):
        self._entries = weakref.WeakValueDictionary()

    def put(self, entry: Entry) -> None:
        self._entries[entry.key] = entry

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def get(self, key: str) -> torch.Tensor:
        return self._entries[key].features
