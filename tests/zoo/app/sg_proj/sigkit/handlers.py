"""The trainer's own handlers: preemption (a scheduler's SIGTERM), a step budget (SIGALRM), a quiet excepthook,
and a stop request for an asyncio status loop."""

import asyncio
import os
import signal
import sys
import traceback

from sigkit import ckpt


class StepTimeout(Exception):
    pass


def install_requeue(state: dict, path: str, sig: int = signal.SIGTERM) -> None:
    """Save a checkpoint when the scheduler warns, then die of the same signal, so the scheduler sees the job
    ended by it and requeues it."""

    def on_term(signum, frame):
        ckpt.save(state["ckpt"], path)
        print(f"signal {signum}: checkpoint saved at step {state['step']}; re-raising", flush=True)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    signal.signal(sig, on_term)


def install_step_budget(seconds: float) -> None:
    """A per-step time budget: SIGALRM after `seconds` raises StepTimeout wherever the main thread is."""

    def on_alarm(signum, frame):
        raise StepTimeout(f"step exceeded its budget of {seconds} s")

    signal.signal(signal.SIGALRM, on_alarm)


def arm(seconds: float) -> None:
    signal.setitimer(signal.ITIMER_REAL, seconds)


def install_quiet_excepthook(crash_file: str) -> None:
    """Users see one line; the traceback goes to a file."""

    def hook(exc_type, exc, tb):
        with open(crash_file, "w") as f:
            traceback.print_exception(exc_type, exc, tb, file=f)
        print(f"sg_proj: run failed ({exc_type.__name__}); details in {crash_file}", file=sys.stderr)

    sys.excepthook = hook


def install_async_stop(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Stop the status loop (and the training it serves) on SIGTERM."""
    loop.add_signal_handler(signal.SIGTERM, stop.set)
