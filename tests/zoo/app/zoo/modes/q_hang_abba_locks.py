"""Two threads take the same two locks in opposite orders: the main's training loop holds the model lock and
wants the metrics lock to log; a checkpoint thread holds the metrics lock and wants the model lock to snapshot
the weights. Each waits on the other forever; nothing printed."""

import threading

import torch

model_lock = threading.Lock()
metrics_lock = threading.Lock()
both_hold = threading.Barrier(2)


def checkpoint_thread(weights: torch.Tensor, metrics: dict) -> None:
    with metrics_lock:
        best = metrics.get("loss", 0.0)
        both_hold.wait()
        with model_lock:
            torch.save({"w": weights.clone(), "best": best}, "/dev/null")


def main() -> None:
    weights, metrics = torch.zeros(16), {}
    saver = threading.Thread(target=checkpoint_thread, args=(weights, metrics))
    saver.start()
    with model_lock:
        weights.add_(0.1)
        both_hold.wait()
        with metrics_lock:
            metrics["loss"] = float(weights.sum())
    saver.join()
