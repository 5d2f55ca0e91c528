"""An RMSNorm extension built with load_inline from the C++ binding alone: the forward it declares lives in the
.cu file of the GPU build, which this CPU build leaves out. The linker makes the .so anyway; importing it fails."""

import os

import torch
from torch.utils.cpp_extension import load_inline

APP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BINDING = r"""
at::Tensor rms_norm_forward(const at::Tensor &x, const at::Tensor &weight, double eps);  // rms_norm_kernel.cu

at::Tensor rms_norm(const at::Tensor &x, const at::Tensor &weight, double eps) {
    TORCH_CHECK(x.size(-1) == weight.size(0), "rms_norm: weight of ", weight.size(0), " for rows of ", x.size(-1));
    return rms_norm_forward(x.contiguous(), weight.contiguous(), eps);
}
"""


def build():
    folder = os.path.join(APP, ".torch_ext", "xt_rms_norm")
    os.makedirs(folder, exist_ok=True)
    return load_inline(name="xt_rms_norm", cpp_sources=[BINDING], functions=["rms_norm"], build_directory=folder)


def main() -> None:
    norm = build()
    x = torch.randn(4, 16)
    print(norm.rms_norm(x, torch.ones(16), 1e-6).shape)
