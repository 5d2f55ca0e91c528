"""A multiprocessing.Pool of 2 workers; each task first takes the vocabulary from a queue the main was to fill
before mapping, but the main never puts it: both workers wait in vocab_queue.get(), the main in pool.map(),
forever; nothing printed."""

import multiprocessing as mp

import torch

vocab_queue = None


def attach(queue) -> None:
    global vocab_queue
    vocab_queue = queue


def tokenize(line: str) -> list:
    vocab = vocab_queue.get()  # the main never put the vocabulary
    return [vocab.get(w, 0) for w in line.split()]


def main() -> None:
    torch.set_num_threads(1)
    queue = mp.get_context("fork").Queue()
    with mp.get_context("fork").Pool(2, initializer=attach, initargs=(queue,)) as pool:
        ids = pool.map(tokenize, ["a b c", "b c d", "c d e", "d e f"])
    print(ids)
