"""A background thread waits for a `ready` Event before it writes the first checkpoint; the code that should set
it is a callback the program never registered. The main joins the thread: both wait forever, nothing printed."""

import threading


class CheckpointWriter(threading.Thread):
    def __init__(self):
        super().__init__(name="ckpt-writer")
        self.ready = threading.Event()
        self.callbacks: list = []

    def on_epoch_end(self) -> None:
        self.ready.set()

    def run(self) -> None:
        self.ready.wait()
        print("checkpoint written")


def train(writer: CheckpointWriter) -> None:
    for cb in writer.callbacks:  # on_epoch_end was meant to be in this list
        cb()


def main() -> None:
    writer = CheckpointWriter()
    writer.start()
    train(writer)
    writer.join()
    print("done")
