"""Builds xtops/kernels.cpp with load_inline, once, into .torch_ext/ under the project (later runs reuse it)."""

import os

from torch.utils.cpp_extension import load_inline

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(os.path.dirname(HERE), ".torch_ext", "xt_kernels")
FUNCTIONS = ["smooth_ce", "mix_half", "random_crop", "start_stats_flusher", "record_stat"]

_ext = None


def ext():
    """The compiled module (also registers the torch.ops.xt operators)."""
    global _ext
    if _ext is None:
        os.makedirs(BUILD, exist_ok=True)
        with open(os.path.join(HERE, "kernels.cpp")) as f:
            source = f.read()
        _ext = load_inline(
            name="xt_kernels",
            cpp_sources=[source],
            functions=FUNCTIONS,
            build_directory=BUILD,
            extra_cflags=["-O2"],
        )
    return _ext
