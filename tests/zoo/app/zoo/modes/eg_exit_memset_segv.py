"""A staging buffer's context manager scrubs its buffer on exit, also when nothing was staged: memset of NULL.

The step fails before the first batch is staged (the batch dict lacks its `image` key); while that exception
unwinds through the `with`, __exit__ scrubs `self.ptr`, still None, through ctypes: SIGSEGV in libc's memset,
and the KeyError is never printed.
"""

import ctypes
import faulthandler

import torch


class Staging:
    def __init__(self, nbytes: int):
        self.nbytes, self.ptr = nbytes, None

    def stage(self, t: torch.Tensor) -> None:
        self.buf = ctypes.create_string_buffer(t.numpy().tobytes(), self.nbytes)
        self.ptr = ctypes.addressof(self.buf)

    def __enter__(self) -> "Staging":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        ctypes.memset(self.ptr, 0, self.nbytes)  # scrub what was staged


def batches():
    for _ in range(3):
        yield {"img": torch.rand(4, 3, 8, 8), "label": torch.randint(0, 3, (4,))}


def main() -> None:
    faulthandler.enable()
    for step, batch in enumerate(batches()):
        with Staging(4 * 3 * 8 * 8 * 4) as staging:
            staging.stage(batch["image"])
        print(f"step {step} staged", flush=True)
