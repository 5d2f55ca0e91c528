"""key=value arguments over the defaults; `case` picks the run's settings (the experiment)."""

import os
import sys

DEFAULTS = {
    "case": "baseline",
    "epochs": "2",
    "steps": "12",
    "batch_size": "16",
    "workers": "0",
    "strict": "0",
    "watchdog_s": "0",
}
CASES = {
    "ex_excepthook_raises": {"crash_report": "1"},
    "ex_warn_error_tensor_copy": {"strict": "1"},
    "ex_logging_closed_stream": {"metrics_log": "1"},
    "ex_thread_excepthook_exit": {"prefetch": "1"},
    "ex_sigterm_workers_killed": {"workers": "2", "preempt_after_s": "1.5", "epochs": "1", "steps": "16"},
    "ex_watchdog_os_exit": {"watchdog_s": "2", "cache_build_s": "4"},
    "ex_subprocess_env_no_path": {"prep": "1"},
    "ex_queue_producer_exited": {"feature_child": "1"},
}


def parse(argv=None) -> dict:
    args = dict(a.split("=", 1) for a in (sys.argv[1:] if argv is None else argv))
    cfg = dict(DEFAULTS)
    cfg.update(CASES.get(args.get("case", "baseline"), {}))
    cfg.update(args)
    cfg["run_dir"] = os.environ.get("EXKIT_RUN_DIR", "/tmp/exkit-runs/local")
    return cfg
