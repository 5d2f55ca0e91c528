"""`python -m tunekit.search --study NAME --trials 4 --parallel 2`: sample configs, run the trials, report."""

from __future__ import annotations

import argparse
import os
import tempfile

from tunekit import report, runner, trial
from tunekit.sampler import RandomSampler


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="tunekit.search")
    p.add_argument("--study", default=os.environ.get("TUNEKIT_STUDY"), help="the study (or $TUNEKIT_STUDY)")
    p.add_argument("--trials", type=int, default=4)
    p.add_argument("--parallel", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def main() -> None:
    args = parse()
    sampler = RandomSampler(args.study, args.seed)
    configs = [sampler.suggest(n) for n in range(args.trials)]
    print(f"study {args.study}: {args.trials} trials, {args.parallel} at a time", flush=True)
    out = tempfile.mkdtemp(prefix=f"{args.study}-")
    study = args.study
    if study in ("hp_logu_zero_bound", "hp_pool_batch_zero"):
        results = runner.in_process_pool(configs, args.parallel)
    elif study == "hp_thread_prune_raises":
        results = runner.in_threads(configs, args.parallel, trial.run_pruned_trial)
    elif study == "hp_results_append_json":
        path = os.path.join(out, "results.json")
        runner.appending_results(configs, args.parallel, path)
        results = report.load(path)
    elif study == "hp_sqlite_locked":
        db = os.path.join(out, "study.db")
        runner.storing_in_sqlite(configs, args.parallel, db)
        results = []
    elif study == "hp_child_rlimit_cpu":
        results = runner.in_children(configs, args.parallel, cpu_seconds=1)
    elif study == "hp_child_pipe_hidden_float":
        results = runner.in_children(configs, args.parallel)
    elif study == "hp_hang_alarm_pool":
        results = runner.in_pool_with_time_limit(configs, args.parallel)
    else:
        raise SystemExit(f"unknown study {study!r}")
    report.show(study, results)


if __name__ == "__main__":
    main()
