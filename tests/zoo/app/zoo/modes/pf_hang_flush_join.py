"""A trace writer thread of the program's that flushes the profiler's events once profiling has ended (it waits on
an event set after the `with` block); the main joins it inside the `with`, to be sure the trace is written before
the summary, and so waits for itself."""

import threading

import torch


class TraceWriter(threading.Thread):
    def __init__(self) -> None:
        super().__init__(name="trace-writer")
        self.profiling_done = threading.Event()
        self.prof = None

    def run(self) -> None:
        self.profiling_done.wait()
        print("trace-writer: events", len(self.prof.events()), flush=True)


def main() -> None:
    model = torch.nn.Linear(64, 64)
    writer = TraceWriter()
    writer.start()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        for _ in range(5):
            model(torch.randn(32, 64)).sum().backward()
        writer.prof = prof
        print("profiled 5 steps, waiting for the trace writer", flush=True)
        writer.join()
    writer.profiling_done.set()
    print("done", flush=True)
