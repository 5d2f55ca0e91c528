"""The pipeline: `python -m qkit.run --case NAME [--stage STAGE] [--engine fbgemm]`."""

import argparse
import os
import tempfile
import warnings

import torch

from qkit import calibrate, evaluate, export, prune
from qkit.model import Net, NetBN, WithPrior, make_data

CASES = [
    "qz_prune_reload_masks",
    "qz_prune_remove_twice",
    "qz_int8_into_float",
    "qz_trace_batch_baked",
    "qz_export_script_child",
    "qz_fuse_train_mode",
]


def main() -> None:
    parser = argparse.ArgumentParser(prog="qkit.run")
    parser.add_argument("--case", choices=CASES, required=True)
    parser.add_argument("--stage", default="all", choices=["all", "calibrate", "prune", "export", "evaluate"])
    parser.add_argument("--engine", default="fbgemm", choices=["fbgemm", "qnnpack", "x86"])
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    torch.manual_seed(0)
    x, y = make_data()
    out = tempfile.mkdtemp(prefix="qkit_")
    model = Net()
    print(f"case {args.case}, stage {args.stage}, engine {args.engine}")

    if args.case == "qz_prune_reload_masks":
        prune.prune_hidden(model)
        ckpt = os.path.join(out, "pruned.pt")
        torch.save(model.state_dict(), ckpt)
        evaluate.evaluate_checkpoint(ckpt, x, y)
    elif args.case == "qz_prune_remove_twice":
        prune.make_permanent(prune.prune_hidden(model))
        print(f"float accuracy {evaluate.accuracy(model.eval(), x, y):.2f}")
        prepared = calibrate.calibrate(prune.make_permanent(model), x, args.engine)
        calibrate.convert(prepared)
    elif args.case == "qz_int8_into_float":
        quantized = calibrate.convert(calibrate.calibrate(model, x, args.engine))
        ckpt = os.path.join(out, "int8.pt")
        torch.save(quantized.state_dict(), ckpt)
        evaluate.evaluate_checkpoint(ckpt, x, y)
    elif args.case == "qz_trace_batch_baked":
        served = WithPrior(model).eval()
        traced = torch.jit.trace(served, x[:8], check_trace=False)
        print(f"traced with a batch of 8; accuracy {evaluate.accuracy(traced, x, y):.2f}")
    elif args.case == "qz_export_script_child":
        print(f"float accuracy {evaluate.accuracy(model.eval(), x, y):.2f}")
        path = export.export_in_child()
        print(f"exported to {path}")
    elif args.case == "qz_fuse_train_mode":
        model = calibrate.finetune(NetBN(), x, y)
        fused = calibrate.fuse(model)
        calibrate.convert(calibrate.calibrate(fused, x, args.engine))


if __name__ == "__main__":
    main()
