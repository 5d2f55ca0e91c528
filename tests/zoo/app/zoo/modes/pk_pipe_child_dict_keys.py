"""A forked child computes per-class counts and sends the class names back over a Pipe as `counts.keys()`, a
dict_keys view, which pickle refuses; the child dies on its send, the parent's recv() then meets EOF."""

import multiprocessing as mp

import torch


def count_classes(conn, labels: list[int]) -> None:
    counts: dict[str, int] = {}
    for y in labels:
        counts[f"class_{y}"] = counts.get(f"class_{y}", 0) + 1
    conn.send({"names": counts.keys(), "counts": list(counts.values())})
    conn.close()


def main() -> None:
    ctx = mp.get_context("fork")
    labels = torch.randint(0, 4, (200,)).tolist()
    recv_end, send_end = ctx.Pipe(duplex=False)
    child = ctx.Process(target=count_classes, args=(send_end, labels))
    child.start()
    send_end.close()
    stats = recv_end.recv()
    child.join()
    print("classes", list(stats["names"]))
