"""A small callback registry: callbacks are registered by name and the loop fires events on each of them with the
same arguments (`on_epoch_end(epoch, logs)`)."""

import logging

log = logging.getLogger("bfit.callbacks")
REGISTRY: dict[str, type] = {}


def register(name: str):
    def add(cls):
        REGISTRY[name] = cls
        return cls

    return add


@register("history")
class History:
    def __init__(self):
        self.losses: list[float] = []

    def on_epoch_end(self, epoch: int, logs: dict) -> None:
        self.losses.append(logs["loss"])
        log.info("epoch %d: loss %.4f", epoch, logs["loss"])


@register("early_stop")
class EarlyStop:
    """Ported from the team's Keras-style trainer, whose loop passed the logs alone."""

    def __init__(self, patience: int = 3):
        self.patience, self.best, self.bad = patience, float("inf"), 0

    def on_epoch_end(self, logs: dict) -> None:
        if logs["loss"] < self.best:
            self.best, self.bad = logs["loss"], 0
        else:
            self.bad += 1


class Callbacks:
    def __init__(self, names: str):
        self.items = [REGISTRY[name]() for name in names.split(",") if name]

    def fire(self, event: str, *args) -> None:
        for cb in self.items:
            getattr(cb, event)(*args)
