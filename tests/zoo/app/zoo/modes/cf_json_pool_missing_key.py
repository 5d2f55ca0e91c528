"""Tokenising shards in a multiprocessing.Pool (forked workers), each worker reading the preprocessing settings
from a JSON config; the config was written for the older tokenizer and has no "lowercase" key. The worker's
KeyError is re-raised by Pool.map in the parent, the worker's traceback shown as a RemoteTraceback."""

import json
import multiprocessing as mp
import os
import tempfile

CONFIG = {"tokenizer": {"vocab_size": 8000, "strip_accents": True}, "max_len": 128}


def tokenize(args: tuple[str, str]) -> int:
    config_path, text = args
    with open(config_path) as f:
        cfg = json.load(f)
    if cfg["tokenizer"]["lowercase"]:
        text = text.lower()
    return len(text.split())


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "preprocess.json")
    with open(path, "w") as f:
        json.dump(CONFIG, f)
    shards = [f"Shard {i} has Some Words in it" for i in range(8)]
    with mp.get_context("fork").Pool(2) as pool:
        counts = pool.map(tokenize, [(path, s) for s in shards])
    print(f"{sum(counts)} tokens", flush=True)
