"""pf_proj's entry: python train.py --case NAME."""

import argparse
import os
import tempfile

import torch
from profkit import traces, train


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    args = parser.parse_args()
    run_dir = tempfile.mkdtemp(prefix="pf_proj_")
    print(f"case {args.case}, output in {run_dir}", flush=True)
    model = train.make_model()
    if args.case == "pf_profiler_already_enabled":
        with traces.op_counts() as counts:
            prof = train.fit_profiled(model, 6)
        print(counts.key_averages().table(row_limit=5), prof, flush=True)
    elif args.case == "pf_trace_before_stop":
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        with traces.step_profiler() as prof:
            for x, y in train.batches(6):
                train.step(model, opt, x, y)
            prof.export_chrome_trace(os.path.join(run_dir, "steps.json"))
    elif args.case == "pf_trace_dir_missing":
        prof = train.fit_profiled(model, 6)
        path = traces.trace_path(run_dir, "steps")
        prof.export_chrome_trace(path)
        print("trace summary", traces.summarize(path), flush=True)
    elif args.case == "pf_timed_swallow_none":
        print("final loss", train.fit(model, 20), flush=True)
        metrics = train.evaluate(model, 5)
        print(f"eval mse {metrics['mse']:.4f}", flush=True)
    else:
        raise SystemExit(f"unknown case {args.case}")
    print("done", flush=True)


if __name__ == "__main__":
    main()
