"""A torch.multiprocessing child computes features and puts them, 1 MB of tensors pickled, on a Queue; the main
joins the child before it reads the queue. The child cannot exit until its queue's feeder thread has written
everything into the pipe, and the pipe is full: the main waits in join(), the child at exit."""

import torch
import torch.multiprocessing as mp


def featurize(out) -> None:
    feats = torch.randn(256, 1024).numpy()
    out.put(feats)


def main() -> None:
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=featurize, args=(out,))
    child.start()
    child.join()
    print(out.get().shape)
