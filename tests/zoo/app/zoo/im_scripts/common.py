"""What the data-preparation scripts share."""


def split_ids(n: int, val_fraction: float = 0.25):
    cut = int(n * (1 - val_fraction))
    return list(range(cut)), list(range(cut, n))
