"""A label dict built from one split, looked up with an id from another: the missing id differs each run."""

import random


def label_of(labels: dict, sample_id: int) -> str:
    return labels[sample_id]


def main() -> None:
    labels = {i: "cat" if i % 2 else "dog" for i in range(1000)}
    sample_id = random.SystemRandom().randrange(1000, 10000)
    print(label_of(labels, sample_id))
