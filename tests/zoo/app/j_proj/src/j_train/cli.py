"""`python -m j_train.cli [--scenario NAME] [--epochs N] [--resume PATH] [--precision bf16] ...`

A scenario is a named recipe of option defaults (the team's experiments); any option given on the command line
wins over it. `--requeue-after N` plays a preempted cluster job: training stops after N epochs and the job is
started again with `--resume` of its last checkpoint."""

import argparse
import os
import sys
import tempfile

from j_train.train import fit

RECIPES = {
    "baseline": {},
    "j_resume_sched_last_epoch": {"epochs": 3, "requeue_after": 1, "sched_resume": "last_epoch"},
    "j_bf16_eval_index_put": {"precision": "bf16"},
    "j_mixup_last_batch": {"mixup": 0.4},
    "j_rng_state_json": {"epochs": 3, "requeue_after": 1, "restore_rng": "json"},
    "j_eval_worker_untruncated": {"eval_seq_len": 48, "eval_workers": 2},
    "j_history_val_every": {"epochs": 3, "val_every": 2},
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="j_train")
    p.add_argument("--scenario", default="baseline", choices=sorted(RECIPES))
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--precision", choices=["32", "bf16"], default="32")
    p.add_argument("--mixup", type=float, default=0.0)
    p.add_argument("--resume", default=None)
    p.add_argument("--sched-resume", choices=["state", "last_epoch"], default="state")
    p.add_argument("--restore-rng", choices=["none", "json"], default="none")
    p.add_argument("--requeue-after", type=int, default=None)
    p.add_argument("--val-every", type=int, default=1)
    p.add_argument("--eval-workers", type=int, default=0)
    p.add_argument("--train-size", type=int, default=50)
    p.add_argument("--val-size", type=int, default=20)
    p.add_argument("--max-len", type=int, default=32)
    p.add_argument("--eval-seq-len", type=int, default=32)
    p.add_argument("--vocab", type=int, default=100)
    p.add_argument("--dim", type=int, default=32)
    p.add_argument("--classes", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None)
    return p


def parse(argv: list[str]) -> argparse.Namespace:
    p = parser()
    first, _ = p.parse_known_args(argv)
    p.set_defaults(**RECIPES[first.scenario])
    args = p.parse_args(argv)
    args.out = args.out or tempfile.mkdtemp(prefix="j_train-")
    os.makedirs(args.out, exist_ok=True)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(sys.argv[1:] if argv is None else argv)
    print(f"scenario {args.scenario}: out {args.out}", flush=True)
    last = fit(args, stop_after=args.requeue_after)
    if last is not None:
        args.resume, args.requeue_after = last, None
        fit(args)


if __name__ == "__main__":
    main()
