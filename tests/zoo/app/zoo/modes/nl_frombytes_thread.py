"""A decode thread's Image.frombytes refuses a frame; the main re-raises it from future.result().

Frames of a camera dump are decoded in a thread pool. The dump's header says 48x32, and the program decodes
every frame as RGB, but this camera recorded grayscale: each frame holds a third of the bytes RGB needs, and
Pillow refuses it (`not enough image data`).
"""

import struct
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image


def camera_dump(frames: int) -> bytes:
    header = struct.pack("<HHH", 48, 32, frames)
    body = b"".join(np.full(48 * 32, i, dtype=np.uint8).tobytes() for i in range(frames))
    return header + body


def decode_frame(dump: bytes, i: int) -> np.ndarray:
    w, h, _ = struct.unpack_from("<HHH", dump, 0)
    start = 6 + i * w * h
    frame = Image.frombytes("RGB", (w, h), dump[start : start + w * h])
    return np.asarray(frame, dtype=np.float32).mean(axis=2)


def main() -> None:
    dump = camera_dump(frames=8)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="decode") as pool:
        futures = [pool.submit(decode_frame, dump, i) for i in range(8)]
        frames = [f.result() for f in futures]
    print("decoded", len(frames))
