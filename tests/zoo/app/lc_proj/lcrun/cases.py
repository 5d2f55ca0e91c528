"""The cases `train.py --case NAME` runs."""

import os
import subprocess
import sys

import torch
from torch.utils.data import DataLoader

from lcrun import cache, preempt
from lcrun.data import Windows
from lcrun.workdir import workdir

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def preempt_requeue() -> None:
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    preempt.install(model, workdir() / "last.pt")
    loader = DataLoader(Windows(), batch_size=4, num_workers=2, multiprocessing_context="fork")
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        preempt.simulate(step, at=3)


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "lcrun.prep", *args]


def prep_manifest() -> None:
    wd = workdir()
    src, out = wd / "train.csv", wd / "train.tsv"
    with open(src, "w") as f:
        f.write("audio,text\n")
        for i in range(20):
            f.write(f"clip{i:03d}.wav,the quick brown fox number {i}\n")
        # an utterance whose transcript is a whole audiobook chapter, quoted
        f.write('chapter07.wav,"' + "word " * 40000 + '"\n')
    subprocess.run(_cli("manifest", str(src), str(out)), check=True, cwd=ROOT)
    print(open(out).read().count("\n"), "utterances")


def prep_vocab_head() -> None:
    wd = workdir()
    src = wd / "corpus.txt"
    with open(src, "w") as f:
        for i in range(60000):
            f.write(f"tok{i % 50000} tok{(i * 7) % 50000} common\n")
    proc = subprocess.Popen(_cli("vocab", str(src)), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    header = proc.stdout.readline()
    top = [proc.stdout.readline().split("\t")[0] for _ in range(8)]
    proc.stdout.close()  # the 8 most frequent tokens are all the model needs
    rc = proc.wait()
    print(header.strip(), top, flush=True)
    if rc:
        raise subprocess.CalledProcessError(rc, proc.args)


def cache_daemon_writer() -> None:
    path = workdir() / "feats.npy"
    subprocess.run([sys.executable, "-m", "lcrun.cache", "build", str(path)], check=True, cwd=ROOT)
    feats = torch.from_numpy(cache.load_features(str(path)))
    print("features", tuple(feats.shape), flush=True)


CASES = {
    "preempt_requeue": preempt_requeue,
    "prep_manifest": prep_manifest,
    "prep_vocab_head": prep_vocab_head,
    "cache_daemon_writer": cache_daemon_writer,
}
