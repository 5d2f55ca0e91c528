"""multiprocessing.Pool.map whose function returns a lambda (an unpicklable result): MaybeEncodingError."""

import multiprocessing as mp


def make_transform(scale: int):
    return lambda x: x * scale


def main() -> None:
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(make_transform, [1, 2, 3]))
