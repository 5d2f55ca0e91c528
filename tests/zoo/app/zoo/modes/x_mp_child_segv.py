"""The main process decodes a shard in a multiprocessing.Process (so a bad shard cannot take the trainer
down); the decoder reads a record through ctypes at an offset the corrupt header gives, far outside its
buffer, and dies by SIGSEGV. The parent joins it and raises on its exit code."""

import ctypes
import multiprocessing as mp


def decode_shard(header_offset: int) -> None:
    buf = ctypes.create_string_buffer(64)
    record = ctypes.string_at(ctypes.addressof(buf) + header_offset, 16)
    print(record)


def main() -> None:
    worker = mp.Process(target=decode_shard, args=(1 << 46,), name="shard-decoder")
    worker.start()
    worker.join()
    if worker.exitcode != 0:
        raise RuntimeError(f"shard decoder exited with code {worker.exitcode}")
    print("decoded")
