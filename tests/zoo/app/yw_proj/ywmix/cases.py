"""The cases `train.py --case NAME` runs."""

from ywmix.export import export_scripted
from ywmix.fit import fit_clipped, fit_compiled, fit_fp16


def scaler_fp16_unscale() -> None:
    fit_fp16()


def compile_outlier_branch() -> None:
    fit_compiled()


def jit_script_kwargs() -> None:
    print(f"saved {export_scripted()}", flush=True)


def clip_nonfinite_workers() -> None:
    fit_clipped()


CASES = {
    "scaler_fp16_unscale": scaler_fp16_unscale,
    "compile_outlier_branch": compile_outlier_branch,
    "jit_script_kwargs": jit_script_kwargs,
    "clip_nonfinite_workers": clip_nonfinite_workers,
}
