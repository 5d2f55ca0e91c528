"""The evaluation of a checkpoint runs in a `multiprocessing.Process` (to free its memory afterwards); the trainer
saved its argparse Namespace in the checkpoint, and the child's `torch.load` (weights_only by default) refuses
it. The parent sees the child's exit code and stops."""

import argparse
import multiprocessing as mp
import os
import sys
import tempfile

import torch


def evaluate(path: str) -> None:
    ckpt = torch.load(path)
    print("evaluating epoch", ckpt["epoch"])


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="ev_ckpt_"), "epoch3.pt")
    hparams = argparse.Namespace(lr=0.1, epochs=3, arch="resnet-tiny")
    torch.save({"model": {"w": torch.zeros(4)}, "epoch": 3, "hparams": hparams}, path)
    child = mp.get_context("fork").Process(target=evaluate, args=(path,), name="eval")
    child.start()
    child.join()
    if child.exitcode != 0:
        sys.exit(f"evaluation of {path} failed (exit code {child.exitcode})")
