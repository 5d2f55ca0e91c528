"""A prefetch thread reads length-prefixed records into a queue; the loop takes batches with a blocking
`q.get()`. The program holds itself to 256 MB past its mapping (RLIMIT_AS); record 2's length prefix is
corrupt (2**40), `bytearray(n)` raises MemoryError in the thread (`Exception in thread prefetch`), the thread
dies, and the loop waits for ever for a batch that will not come."""

import io
import queue
import resource
import struct
import threading

import torch


def mapped_bytes() -> int:
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmSize:")).split()[1]) * 1024


def records() -> io.BytesIO:
    out = io.BytesIO()
    for i in range(6):
        body = bytes([i]) * 4096
        n = (1 << 40) if i == 2 else len(body)
        out.write(struct.pack("<Q", n) + body)
    out.seek(0)
    return out


def prefetch(src: io.BytesIO, q: queue.Queue) -> None:
    while head := src.read(8):
        (n,) = struct.unpack("<Q", head)
        buf = bytearray(n)
        src.readinto(buf)
        q.put(torch.frombuffer(buf, dtype=torch.uint8).float())
    q.put(None)


def main() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (mapped_bytes() + (256 << 20), hard))
    q: queue.Queue = queue.Queue(maxsize=2)
    threading.Thread(target=prefetch, args=(records(), q), name="prefetch", daemon=True).start()
    step = 0
    while True:
        batch = q.get()
        if batch is None:
            break
        print(f"step {step} mean {batch.mean().item():.1f}", flush=True)
        step += 1
    print("done", flush=True)
