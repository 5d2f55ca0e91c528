"""A prefetch thread parses records and puts batches on a queue.Queue; one record's length field is "n/a", the
thread dies of the ValueError (Python prints `Exception in thread prefetch`), and the training loop's get() waits
for a batch that never comes, forever."""

import queue
import threading

import torch

RECORDS = [{"id": i, "len": str(4 + i % 3)} for i in range(12)]
RECORDS[5]["len"] = "n/a"


def prefetch(records: list[dict], out: queue.Queue, batch: int) -> None:
    for start in range(0, len(records), batch):
        rows = records[start : start + batch]
        lengths = [int(r["len"]) for r in rows]
        out.put(torch.tensor(lengths, dtype=torch.float32))


def main() -> None:
    batches: queue.Queue = queue.Queue(maxsize=2)
    batch = 4
    threading.Thread(target=prefetch, args=(RECORDS, batches, batch), name="prefetch", daemon=True).start()
    total = 0.0
    for step in range(len(RECORDS) // batch):
        lengths = batches.get()
        total += lengths.mean().item()
        print(f"step {step}: mean length {lengths.mean().item():.2f}", flush=True)
    print(f"mean over batches {total / (len(RECORDS) // batch):.2f}")
