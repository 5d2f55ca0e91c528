"""The cases `train.py --case NAME` runs."""

import logging
import os
import subprocess
import sys
import warnings

import torch
from torch.utils.data import DataLoader
from tqdm import tqdm

from vqrun import data, logsetup
from vqrun.model import Head, build_targets
from vqrun.workdir import workdir

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
log = logging.getLogger("vqrun.train")


def _train_steps(model, batches) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(batches):
        loss = torch.nn.functional.cross_entropy(model(x), build_targets(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())


def json_strict_warning() -> None:
    """JSON logs on stderr, warnings as errors (the project's strict mode); the failure logged, then exit 1."""
    logsetup.json_logging()
    warnings.simplefilter("error")
    log.info("strict mode: warnings are errors")
    try:
        x = torch.randn(8, 16)
        labels = torch.randint(0, 4, (8,))
        _train_steps(Head(), [(x, labels)])
    except Exception:
        log.exception("training failed")
        sys.exit(1)


def tqdm_truncated_chain() -> None:
    """A tqdm bar over a fork DataLoader (2 workers); a cut JPEG; the loop re-raises `from` the worker's error."""
    paths = data.write_images(workdir())
    loader = DataLoader(data.Images(paths), batch_size=4, num_workers=2, multiprocessing_context="fork")
    model = Head(dim=3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    bar = tqdm(loader, desc="epoch 0", unit="batch")
    for _step, batch in enumerate(_guarded(bar)):
        x, y = batch
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        bar.set_postfix(loss=f"{loss.item():.3f}")


def _guarded(batches):
    it = iter(batches)
    i = 0
    while True:
        try:
            batch = next(it)
        except StopIteration:
            return
        except Exception as err:
            raise RuntimeError(f"data pipeline failed at batch {i}") from err
        yield batch
        i += 1


def redirect_summary() -> None:
    """stderr sent to the run's own log file (fd 2 itself); the terminal gets a one-line summary and exit 1."""
    wd = workdir()
    err_path = wd / "train.err"
    fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 2)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    logsetup.file_logging(wd / "train.log")
    print(f"logs: {wd}", flush=True)
    try:
        feats = data.stack_features(data.feature_rows())
        x = torch.from_numpy(feats)
        _train_steps(Head(), [(x, torch.arange(len(x)) % 4)])
    except Exception as err:
        import traceback

        traceback.print_exc()
        print(f"training failed: {type(err).__name__} (details in {err_path})", flush=True)
        sys.exit(1)


def export_pipe_hang() -> None:
    """The export CLI run with stdout and stderr piped, waited for before reading: its log fills the pipe."""
    print("exporting 20000 items", flush=True)
    cmd = [sys.executable, "-m", "vqrun.export", "20000"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    code = proc.wait()
    out, err = proc.communicate()
    print(f"export exited {code}: {out.decode().strip()}", flush=True)


CASES = {f.__name__: f for f in (json_strict_warning, tqdm_truncated_chain, redirect_summary, export_pipe_hang)}
