"""A "remote" log handler: for warnings and worse, its emit() hands the record to a short-lived upload thread and
joins it, to keep the records in order; the upload thread logs its own progress with the same logger. The
logging module calls emit() under the handler's lock, so the thread's record waits for that lock while emit()
waits for the thread: the first warning of the run (a slow epoch) freezes it."""

import logging
import sys
import tempfile
import threading
import time
from pathlib import Path

import torch

log = logging.getLogger("lg_remote")


class UploadHandler(logging.Handler):
    def __init__(self, outbox: Path) -> None:
        super().__init__(level=logging.INFO)
        self.outbox = outbox

    def upload(self, text: str) -> None:
        log.info("uploading %d bytes", len(text))
        with open(self.outbox, "a") as f:
            f.write(text + "\n")

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.WARNING:
            return
        t = threading.Thread(target=self.upload, args=(self.format(record),), name="log-upload")
        t.start()
        t.join()


def main() -> None:
    log.setLevel(logging.INFO)
    log.addHandler(logging.StreamHandler(sys.stdout))
    log.addHandler(UploadHandler(Path(tempfile.mkdtemp(prefix="outbox_")) / "records.txt"))
    model = torch.nn.Linear(16, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(0)
    for epoch in range(3):
        start = time.monotonic()
        for _ in range(20):
            x = torch.randn(32, 16, generator=g)
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch == 1:
            time.sleep(0.5)  # the epoch's checkpoint written to a slow disk
        took = time.monotonic() - start
        log.info("epoch %d loss %.4f (%.2f s)", epoch, loss.item(), took)
        if took > 0.3:
            log.warning("epoch %d was slow: %.2f s", epoch, took)
    print("done")
