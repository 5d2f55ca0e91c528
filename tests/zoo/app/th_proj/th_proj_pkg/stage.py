"""A staging thread that copies each batch out to a host buffer by address, to keep the copy off the main thread.

Only the batch's address and size are queued (no reference to the tensor: "zero-copy"); the copies run when the
step ends and the main calls flush().
"""

import ctypes
import queue
import threading


class Stager:
    def __init__(self, nbytes: int) -> None:
        self.buf = ctypes.create_string_buffer(nbytes)
        self.jobs: queue.Queue = queue.Queue()
        self.go = threading.Event()
        self.thread = threading.Thread(target=self.loop, name="stager", daemon=True)
        self.thread.start()

    def submit(self, address: int, nbytes: int) -> None:
        self.jobs.put((address, nbytes))

    def flush(self) -> None:
        if self.jobs.unfinished_tasks:
            self.go.set()
            self.jobs.join()

    def loop(self) -> None:
        while True:
            address, nbytes = self.jobs.get()
            self.go.wait()
            ctypes.memmove(self.buf, address, nbytes)
            self.go.clear()
            self.jobs.task_done()
