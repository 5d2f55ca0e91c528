"""Shards tokenized in a multiprocessing.Pool; a corrupt shard's zlib error is handled by a log line that
itself fails (it indexes a Path as if it were the shard's dict). The child's traceback comes back as text
(RemoteTraceback), the zlib error first, then `During handling of the above exception`."""

import multiprocessing
import pathlib
import tempfile
import zlib


def write_shards(root: pathlib.Path) -> list[pathlib.Path]:
    paths = []
    for i in range(6):
        p = root / f"tok-{i}.z"
        text = " ".join(f"w{j}" for j in range(200)).encode()
        p.write_bytes(text if i == 4 else zlib.compress(text))  # shard 4 written by the old, uncompressed exporter
        paths.append(p)
    return paths


def count_tokens(path: pathlib.Path) -> int:
    try:
        text = zlib.decompress(path.read_bytes()).decode()
    except zlib.error:
        print(f"skipping corrupt shard {path['name']}", flush=True)
        return 0
    return len(text.split())


def main() -> None:
    paths = write_shards(pathlib.Path(tempfile.mkdtemp(prefix="eg_tok_")))
    with multiprocessing.get_context("fork").Pool(2) as pool:
        counts = pool.map(count_tokens, paths)
    print(f"{sum(counts)} tokens", flush=True)
