"""A shard index is written to a `.part` file in a TemporaryDirectory and published by a weakref.finalize when
its writer goes (close the file, os.replace to the final path). At the end of build_index both the scratch
directory and the writer go: the TemporaryDirectory's own finalizer runs first and removes the `.part` file, so
the writer's finalizer fails: `Exception ignored in: <finalize object ...; dead>` ... `FileNotFoundError`. The
program goes on, finds no index and fails on its consequence: `KeyError: 'train'`."""

import json
import os
import tempfile
import weakref


def _publish(fh, part: str, final: str) -> None:
    fh.close()
    os.replace(part, final)


class IndexWriter:
    def __init__(self, scratch: str, final: str):
        part = os.path.join(scratch, "index.json.part")
        self._fh = open(part, "w")
        weakref.finalize(self, _publish, self._fh, part, final)

    def write(self, index: dict) -> None:
        json.dump(index, self._fh)


def build_index(out_dir: str) -> None:
    scratch = tempfile.TemporaryDirectory()
    writer = IndexWriter(scratch.name, os.path.join(out_dir, "index.json"))
    writer.write({"train": [f"shard-{i:03d}" for i in range(8)], "val": ["shard-008"]})
    print("index written", flush=True)


def load_index(out_dir: str) -> dict:
    path = os.path.join(out_dir, "index.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def main() -> None:
    out_dir = tempfile.mkdtemp()
    build_index(out_dir)
    index = load_index(out_dir)
    print(f"training on {len(index['train'])} shards")
