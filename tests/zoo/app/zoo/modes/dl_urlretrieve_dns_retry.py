"""A dataset download tried on a node with no name resolution: the program's own retry loop (3 tries, a short
backoff) gives up and re-raises urllib's URLError."""

import os
import tempfile
import time
import urllib.error
import urllib.request

URL = "https://datasets.mirror.invalid/digits/digits.zip"


def fetch(url: str, dest: str, tries: int = 3) -> str:
    for attempt in range(1, tries + 1):
        try:
            return urllib.request.urlretrieve(url, dest)[0]
        except urllib.error.URLError as e:
            print(f"download attempt {attempt}/{tries} failed: {e.reason}", flush=True)
            if attempt == tries:
                raise
            time.sleep(0.2 * attempt)
    raise AssertionError("unreachable")


def main() -> None:
    import torch

    cache = tempfile.mkdtemp(prefix="dl_cache_")
    path = fetch(URL, os.path.join(cache, "digits.zip"))
    print(torch.load(path))
