"""A writer process (multiprocessing.Process, not a daemon) saves predictions from a queue until it gets None. The
main process fails on a bad batch before it sends the None: its traceback is printed, and then the interpreter's
exit joins the non-daemon writer (multiprocessing's atexit handler), which waits on the queue forever."""

import multiprocessing as mp

import torch


def writer(queue) -> None:
    count = 0
    while True:
        item = queue.get()
        if item is None:
            break
        count += len(item)
    print(f"writer: {count} predictions saved", flush=True)


def predict(model: torch.nn.Module, batch: torch.Tensor) -> list:
    return model(batch).argmax(dim=1).tolist()


def main() -> None:
    queue = mp.get_context("fork").Queue()
    proc = mp.get_context("fork").Process(target=writer, args=(queue,), name="pred-writer")
    proc.start()
    model = torch.nn.Linear(16, 4)
    batches = [torch.randn(8, 16) for _ in range(3)] + [torch.randn(8, 12)]
    for i, batch in enumerate(batches):
        queue.put(predict(model, batch))
        print(f"batch {i} queued", flush=True)
    queue.put(None)
    proc.join()
