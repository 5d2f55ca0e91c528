"""Train the small mixed precision model: python train.py case=NAME [precision=bf16] [key=value ...]."""

import sys

from amp_train.loop import check_kernels, fit

DEFAULTS = {
    "precision": "fp32",
    "batch": "32",
    "workers": "0",
    "epochs": "1",
    "jitter": "false",
    "anomaly": "false",
    "entropy": "0",
    "whiten": "0",
    "scaler": "false",
}
CASES = {
    "mx_half_cholesky": {"precision": "fp16", "whiten": "0.1"},
    "mx_bf16_frame_count": {"precision": "bf16", "batch": "50"},
    "mx_scaler_step_unscaled": {"precision": "fp16", "scaler": "true"},
    "mx_anomaly_masked_entropy": {"anomaly": "true", "entropy": "0.01"},
    "mx_gradcheck_float32": {},
    "mx_worker_inv_bf16": {"precision": "bf16", "jitter": "true", "workers": "2"},
}


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    case = args.pop("case")
    cfg = {**DEFAULTS, **CASES[case], **args}
    print(f"case {case}: {cfg}", flush=True)
    if case == "mx_gradcheck_float32":
        check_kernels()
    fit(cfg)


if __name__ == "__main__":
    main()
