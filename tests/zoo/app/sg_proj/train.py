"""sg_proj's entry: `python train.py --case NAME`."""

import argparse
import asyncio
import os
import subprocess
import tempfile
import threading

from sigkit import handlers, loop


def case_term_reraise(run_dir: str) -> None:
    """A scheduler's SIGTERM (a child shell here) a second after the first step; the handler saves, then
    re-raises it."""
    state: dict = {}
    handlers.install_requeue(state, os.path.join(run_dir, "last.pt"))
    pid = os.getpid()
    loop.fit(state, steps=60, pause=0.05, on_start=lambda: subprocess.Popen(["sh", "-c", f"sleep 1; kill -TERM {pid}"]))
    print("done", flush=True)


def case_async_stop_thread(run_dir: str) -> None:
    """Training in a thread beside an asyncio status loop; the thread wires the loop's SIGTERM stop."""
    result: dict = {}

    def train_with_status() -> None:
        ev_loop = asyncio.new_event_loop()
        stop = asyncio.Event()
        handlers.install_async_stop(ev_loop, stop)
        result["final_loss"] = loop.fit({}, steps=10)

    t = threading.Thread(target=train_with_status, name="trainer")
    t.start()
    t.join()
    print(f"final loss {result['final_loss']:.4f}", flush=True)


def case_step_budget(run_dir: str) -> None:
    """A per-step budget of 0.3 s; the first batch (workers starting, 0.1 s a sample) takes longer."""
    loop.fit_budgeted(steps=8, budget=0.3)


def case_quiet_hook(run_dir: str) -> None:
    """The quiet excepthook; the evaluation concatenates a vector head with a scalar mean."""
    handlers.install_quiet_excepthook(os.path.join(run_dir, "crash.txt"))
    state: dict = {}
    loop.fit(state, steps=6)
    model = loop.make_model()
    print(loop.evaluate_heads(model))


CASES = {
    "sg_term_reraise": case_term_reraise,
    "sg_async_stop_thread": case_async_stop_thread,
    "sg_step_budget": case_step_budget,
    "sg_quiet_hook": case_quiet_hook,
}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--case", required=True, choices=sorted(CASES))
    args = p.parse_args()
    run_dir = tempfile.mkdtemp(prefix="sg_run_")
    CASES[args.case](run_dir)


if __name__ == "__main__":
    main()
