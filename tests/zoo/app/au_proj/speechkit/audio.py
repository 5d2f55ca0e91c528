"""WAV files written and read with the standard library's `wave` module, no audio library."""

import wave

import numpy as np

# sample width in bytes -> the integer type of one sample
DTYPES = {1: np.uint8, 2: np.int16, 4: np.int32}


def write_wav(path: str, x: np.ndarray, sr: int, width: int = 2) -> None:
    """x: float samples in [-1, 1], shape (n,) or (n, channels)."""
    channels = 1 if x.ndim == 1 else x.shape[1]
    if width == 3:
        ints = (x * (2**23 - 1)).astype("<i4").reshape(-1)
        frames = b"".join(int(v).to_bytes(3, "little", signed=True) for v in ints)
    else:
        ints = (x * (2 ** (8 * width - 1) - 1)).astype(DTYPES[width])
        frames = ints.tobytes()
    with wave.open(path, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(sr)
        w.writeframes(frames)


def read_wav(path: str) -> tuple[np.ndarray, int]:
    """Float32 samples, (n,) for mono or (channels, n), and the sample rate."""
    with wave.open(path, "rb") as w:
        sr, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
        frames = w.readframes(w.getnframes())
    dtype = DTYPES[width]
    x = np.frombuffer(frames, dtype).astype(np.float32) / float(2 ** (8 * width - 1))
    if channels > 1:
        x = x.reshape(-1, channels).T
    return x, sr
