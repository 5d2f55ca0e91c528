"""Write records into shards; the end of the input closes the last shard (which fails: its temp file was already moved)."""

import json
import os
import tempfile

OUT = tempfile.mkdtemp()


class ShardWriter:
    def __init__(self, folder):
        self.folder = folder
        self.n = 0
        self.tmp = os.path.join(folder, "shard.tmp")
        self.f = open(self.tmp, "w")

    def write(self, rec):
        self.f.write(json.dumps(rec) + "\n")
        self.n += 1

    def close(self):
        self.f.close()
        final = os.path.join(self.folder, f"shard-{self.n:05d}.jsonl")
        os.rename(self.tmp, final)
        stats = {"records": self.n, "bytes": os.path.getsize(final)}
        with open(os.path.join(self.folder, "index.json"), "w") as f:
            json.dump(stats, f, default=None)
        os.remove(self.tmp)  # bug: the temp file was renamed above


def records():
    for i in range(5):
        yield {"i": i, "x": i * 0.5}


def main():
    writer = ShardWriter(OUT)
    it = records()
    while True:
        try:
            rec = next(it)
        except StopIteration:
            writer.close()
            break
        writer.write(rec)
    print("done", writer.n)


if __name__ == "__main__":
    main()
