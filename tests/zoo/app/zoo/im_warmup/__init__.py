"""Warms the vocabulary cache when the package is imported, in a thread (so it "runs in the background"), and
waits for it. The thread's own import of this package's submodule waits for this package's import to finish."""

import threading


def _warm() -> None:
    from zoo.im_warmup import vocab

    vocab.load()


print("warming the vocabulary cache", flush=True)
_thread = threading.Thread(target=_warm, name="vocab-warmup", daemon=True)
_thread.start()
_thread.join()
