"""The feature cache: built by a child run (`python -m lcrun.cache build OUT`), its write handed to a daemon thread."""

import sys
import threading
import time

import numpy as np

SHAPE = (256, 512)


def _write(path: str, feats: np.ndarray) -> None:
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, np.lib.format.header_data_from_array_1_0(feats))
        data = feats.tobytes()
        step = len(data) // 8
        for start in range(0, len(data), step):
            f.write(data[start : start + step])
            f.flush()
            time.sleep(0.4)  # the shared filesystem's pace


def build(path: str) -> None:
    feats = np.random.default_rng(0).standard_normal(SHAPE).astype(np.float32)
    writer = threading.Thread(target=_write, args=(path, feats), name="cache-writer", daemon=True)
    writer.start()
    time.sleep(0.5)
    print(f"cache: {SHAPE[0]} rows handed to the writer", flush=True)


def load_features(path: str) -> np.ndarray:
    return np.load(path)


if __name__ == "__main__":
    build(sys.argv[2])
