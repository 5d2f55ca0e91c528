"""rx_proj's entry: python train.py --case=NAME (or through the job script: bash run.sh --case=NAME)."""

import argparse
import os
import tempfile

import torch
from limitkit import checkpoint, data, train


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    args = parser.parse_args()
    out = tempfile.mkdtemp(prefix="rx_proj_")
    print(f"case {args.case}, output in {out}", flush=True)
    if args.case == "rx_ckpt_file_too_large":
        model = train.make_model(512, 2048)
        print("steps", train.fit(model, data.Prefetcher(4, 512)), flush=True)
        checkpoint.save({"model": model.state_dict()}, os.path.join(out, "last.pt"))
    elif args.case == "rx_main_cpu_time":
        v = train.pretrain_features(512, 100000)
        print("warm-up done", float(v.sum()), flush=True)
    elif args.case == "rx_prefetch_thread_as":
        data.cap_address_space(512)
        model = train.make_model(32, 64)
        print("steps", train.fit(model, data.Prefetcher(8, 32)), flush=True)
    elif args.case == "rx_worker_shard_too_large":
        for i, x in enumerate(data.shard_loader(out, 40000, 64)):
            print("shard", i, tuple(x.shape), flush=True)
    else:
        raise SystemExit(f"unknown case {args.case}")
    print("done", torch.__version__, flush=True)


if __name__ == "__main__":
    main()
