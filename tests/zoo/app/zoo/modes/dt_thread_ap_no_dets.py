"""Per-class average precision computed in a ThreadPoolExecutor of 2, one task per class, after a short
evaluation; the rare class 2 got no detection above the score threshold, and its task concatenates an
empty list of score arrays. The main re-raises the task's exception from `future.result()`."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

NUM_CLASSES = 3


def detections(n_images: int) -> list[dict]:
    rng = np.random.default_rng(0)
    out = []
    for _ in range(n_images):
        labels = rng.integers(0, 2, 5)  # the model has not learnt class 2 yet
        out.append({"labels": labels, "scores": rng.random(5), "tp": rng.random(5) > 0.4})
    return out


def average_precision(dets: list[dict], cls: int, n_gt: int) -> float:
    scores = np.concatenate([d["scores"][d["labels"] == cls] for d in dets if (d["labels"] == cls).any()])
    tp = np.concatenate([d["tp"][d["labels"] == cls] for d in dets if (d["labels"] == cls).any()])
    order = np.argsort(-scores)
    tp = tp[order].cumsum()
    precision = tp / np.arange(1, len(tp) + 1)
    return float((precision * np.diff(np.concatenate([[0], tp / n_gt]))).sum())


def main() -> None:
    dets = detections(20)
    print(f"evaluating {len(dets)} images, {NUM_CLASSES} classes", flush=True)
    with ThreadPoolExecutor(2, thread_name_prefix="ap") as pool:
        futures = {c: pool.submit(average_precision, dets, c, 40) for c in range(NUM_CLASSES)}
        aps = {c: f.result() for c, f in futures.items()}
    print("mAP", sum(aps.values()) / NUM_CLASSES, flush=True)
