"""The vocabulary is built as a character trie (nested dicts) and written to JSON by a child process
(multiprocessing, fork) so the loop can go on. One "token" is a whole file without separators, 60000
characters: the trie is 60000 levels deep. The program raised the recursion limit for its deep tries and the
child keeps the job's `ulimit -s 4096` (RLIMIT_STACK 4 MiB): json's C encoder recurses past the stack, SIGSEGV
in the child; the parent sees exit code -11 and raises."""

import json
import multiprocessing as mp
import os
import resource
import sys
import tempfile


def build_trie(tokens: list[str]) -> dict:
    root: dict = {}
    for tok in tokens:
        node = root
        for ch in tok:
            node = node.setdefault(ch, {})
        node["$"] = {}
    return root


def write_vocab(trie: dict, path: str) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (4 << 20, hard))
    text = json.dumps(trie)
    with open(path, "w") as f:
        f.write(text)


def main() -> None:
    sys.setrecursionlimit(1_000_000)
    tokens = ["the", "cat", "sat", "on", "mat"] + ["abcdefghij" * 6000]
    trie = build_trie(tokens)
    path = os.path.join(tempfile.mkdtemp(prefix="om_vocab_"), "vocab.json")
    child = mp.get_context("fork").Process(target=write_vocab, args=(trie, path), name="vocab-writer")
    child.start()
    print(f"vocab writer {child.pid} started", flush=True)
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"vocab writer exited with code {child.exitcode}; {path} not written")
    print("vocab written", flush=True)
