"""The program's own timing helpers."""

import functools
import time


def timed(fn):
    """Time a call and print it; a failing call is reported and skipped, so a long run keeps going."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            print(f"timed: {fn.__name__} failed after {time.perf_counter() - t0:.3f} s: {e!r}", flush=True)
            return None
        finally:
            print(f"timed: {fn.__name__} {time.perf_counter() - t0:.3f} s", flush=True)

    return wrapper
