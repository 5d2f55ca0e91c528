"""Frames are decoded into an anonymous mmap; the program keeps only the mapping's address (an int, from ctypes)
to hand to a decoder child process, and the mapping itself is closed when its `with` block ends. The forked
child reads the stale address with ctypes.string_at and dies by SIGSEGV; the parent sees exit code -11 and
raises its own `RuntimeError: frame decoder exited with -11`."""

import ctypes
import mmap
import multiprocessing as mp

import torch

FRAME = 64 * 1024 * 1024


def stage_frames() -> int:
    with mmap.mmap(-1, FRAME) as frames:
        frames.write(b"\x01" * 4096)
        view = ctypes.c_char.from_buffer(frames)
        address = ctypes.addressof(view)
        del view
    return address


def decode(address: int, n: int, out) -> None:
    raw = ctypes.string_at(address, n)
    out.put(torch.frombuffer(bytearray(raw), dtype=torch.uint8).float().mean().item())


def main() -> None:
    address = stage_frames()
    print(f"frames staged at {address:#x}", flush=True)
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    proc = ctx.Process(target=decode, args=(address, 4096, out), name="frame-decoder")
    proc.start()
    proc.join()
    if proc.exitcode != 0:
        raise RuntimeError(f"frame decoder exited with {proc.exitcode}")
    print(f"mean pixel {out.get():.3f}")
