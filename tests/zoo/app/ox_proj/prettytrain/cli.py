"""The command line: settings, the log, the pretty excepthook, then the run; `on_error` picks how a
failure is reported: raise (the pretty hook prints it), summary (the traceback to the run's log file, one
line on stderr, exit 1) or redirect (stderr itself goes to the run's log file; stdout gets a summary)."""

import logging
import os
import signal
import sys
import tempfile
import traceback

from prettytrain import logsetup, pretty
from prettytrain.config import load
from prettytrain.train import fit


def main(argv: list[str]) -> None:
    cfg = load(argv)
    log = logsetup.setup()
    pretty.install()
    run_dir = tempfile.mkdtemp(prefix="prettytrain_run_")
    log.info("mode %s, run dir %s", cfg["mode"], run_dir)
    if cfg["on_error"] == "raise":
        fit(cfg)
        return
    log_path = os.path.join(run_dir, "train.log")
    if cfg["on_error"] == "redirect":
        sys.stderr.flush()
        fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(fd, 2)
    else:
        logsetup.to_file(log_path)
    try:
        fit(cfg)
    except Exception as e:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # no second report from the loader's handler
        if cfg["on_error"] == "redirect":
            traceback.print_exc()
            sys.stderr.flush()
            lines = open(log_path).read().strip().splitlines()
            last = ([line for line in lines if "Error" in line] or lines or ["?"])[-1]
            print(f"FAILED: {last[:200]} (full log: {log_path})", flush=True)
        else:
            logging.getLogger("prettytrain").error("training failed", exc_info=True)
            print(f"error: training failed ({type(e).__name__}); details in {log_path}", file=sys.stderr)
        sys.exit(1)
