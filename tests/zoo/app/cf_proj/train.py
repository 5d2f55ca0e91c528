"""cf_proj's entry: `python train.py --case NAME` trains with configs/base.yaml and configs/NAME.yaml over it."""

import argparse
import os
import tempfile

import torch.multiprocessing as mp
from confkit import schema
from confkit.load import merged
from confkit.train import evaluate_shard, fit

CASES = ["cf_yaml_bad_indent", "cf_yaml_eta_min_string", "cf_dataclass_extra_key", "cf_spawn_config_relpath"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=CASES)
    args = parser.parse_args()
    overlay = f"configs/{args.case}.yaml"
    cfg = merged("configs/base.yaml", *([overlay] if os.path.exists(overlay) else []))
    train, optim = schema.build(cfg)
    print(f"train {train} optim {optim}", flush=True)
    if args.case == "cf_spawn_config_relpath":
        # each run writes under its own folder, as a launcher would set it up, then evaluates in a spawned child
        os.chdir(tempfile.mkdtemp(prefix="run-"))
        print(f"run folder {os.getcwd()}", flush=True)
        fit(train, optim)
        mp.spawn(evaluate_shard, args=("configs/base.yaml",), nprocs=1)
        return
    fit(train, optim)


if __name__ == "__main__":
    main()
