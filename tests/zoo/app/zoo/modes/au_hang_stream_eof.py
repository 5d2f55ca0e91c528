"""A streaming reader thread feeds 100 ms chunks of a recording to the recogniser through a queue; it fills each
chunk with `f.read()` until the chunk is full, which at the end of the file (a last partial chunk) never happens:
`read` returns b"" for ever. The main waits in `q.get()` for the next chunk or the end marker."""

import os
import queue
import tempfile
import threading
import wave

import numpy as np

SR = 16000
CHUNK = SR // 10


def write_recording(path: str) -> None:
    x = (np.random.default_rng(0).standard_normal(int(SR * 0.75)) * 2000).astype(np.int16)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(x.tobytes())


def reader(path: str, q: queue.Queue) -> None:
    with open(path, "rb") as f:
        f.seek(44)  # past the canonical WAV header
        while True:
            buf = b""
            while len(buf) < 2 * CHUNK:
                buf += f.read(2 * CHUNK - len(buf))
            q.put(np.frombuffer(buf, np.int16))
    q.put(None)


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="au_stream_"), "meeting.wav")
    write_recording(path)
    q: queue.Queue = queue.Queue()
    threading.Thread(target=reader, args=(path, q), daemon=True, name="stream-reader").start()
    print("streaming meeting.wav in 100 ms chunks", flush=True)
    n = 0
    while True:
        chunk = q.get()
        if chunk is None:
            break
        n += 1
        print(f"chunk {n}: rms {float(np.sqrt(np.mean(chunk.astype(np.float32) ** 2))):.1f}", flush=True)
    print(f"{n} chunks")
