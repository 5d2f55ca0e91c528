"""Logging through a QueueHandler to a QueueListener thread (so that slow handlers never block the loop). The
epoch-end hook "flushes" the log by stopping the listener; the trainer's shutdown stops it again. On Python 3.11
a second `QueueListener.stop()` finds its thread gone: `self._thread.join()` on None."""

import logging
import logging.handlers
import queue
import sys

import torch

log = logging.getLogger("ex.train")


def setup_logging() -> logging.handlers.QueueListener:
    q: queue.Queue = queue.Queue(-1)
    listener = logging.handlers.QueueListener(q, logging.StreamHandler(sys.stdout))
    log.addHandler(logging.handlers.QueueHandler(q))
    log.setLevel(logging.INFO)
    listener.start()
    return listener


def on_epoch_end(listener, epoch: int, loss: float) -> None:
    log.info("epoch %d loss %.4f", epoch, loss)
    listener.stop()  # flush: wait until every queued record is written


def main() -> None:
    listener = setup_logging()
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        on_epoch_end(listener, epoch, loss.item())
    log.info("training done")
    listener.stop()
