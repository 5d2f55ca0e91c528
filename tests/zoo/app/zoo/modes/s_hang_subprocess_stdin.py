"""The program hands its file manifest to `sort` on a pipe and waits for it to finish, without closing the pipe:
sort waits for the end of its input, the program waits for sort. Nothing printed."""

import subprocess

import torch


def sort_manifest(names: list) -> int:
    proc = subprocess.Popen(["sort", "-o", "/dev/null"], stdin=subprocess.PIPE)
    proc.stdin.write("\n".join(names).encode() + b"\n")
    proc.stdin.flush()
    return proc.wait()  # stdin never closed: sort never sees EOF


def main() -> None:
    names = [f"shard-{i:03d}.pt" for i in torch.randperm(16).tolist()]
    print("sorted", sort_manifest(names))
