"""Checkpoint uploads: a ThreadPoolExecutor whose task waits for credentials the main hands over after its
first epoch. The main fails first (its step count from an IterableDataset's infinite length); its traceback is
printed, then the interpreter's exit joins the executor's thread for ever."""

import math
import threading
from concurrent.futures import ThreadPoolExecutor

UPLOADS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uploader")
CREDENTIALS = threading.Event()


def upload(path: str) -> str:
    CREDENTIALS.wait()
    return f"uploaded {path}"


def warmup_steps(total: float, ratio: float) -> int:
    return int(total * ratio)


def start_training() -> None:
    UPLOADS.submit(upload, "ckpt-0.pt")
    total = math.inf  # len() of a streaming dataset, taken as unbounded
    print(f"warm-up: {warmup_steps(total, 0.1)} steps", flush=True)
    CREDENTIALS.set()
