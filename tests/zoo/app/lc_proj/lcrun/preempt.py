"""Preemption: on SIGUSR1 (Slurm's `--signal=USR1@90`) save a checkpoint and requeue the job."""

import os
import signal
import subprocess

import torch

STATE = {}


def requeue() -> None:
    job = os.environ["SLURM_JOB_ID"]
    subprocess.run(["scontrol", "requeue", job], check=True)


def on_preempt(signum, frame) -> None:
    torch.save(STATE["model"].state_dict(), STATE["ckpt"])
    print(f"preempted: checkpoint saved to {STATE['ckpt']}", flush=True)
    requeue()


def install(model: torch.nn.Module, ckpt) -> None:
    STATE.update(model=model, ckpt=ckpt)
    signal.signal(signal.SIGUSR1, on_preempt)


def simulate(step: int, at: int) -> None:
    """The program's own test of its preemption path: the notice Slurm would send, at step `at`."""
    if step == at:
        os.kill(os.getpid(), signal.SIGUSR1)
