"""Hand-written LoRA adapters: a frozen base Linear plus B @ A of a small rank, merged into the weight for speed,
in Python or by a tiny C kernel built at run time."""

import ctypes
import os
import subprocess
import tempfile

import torch
from torch import nn

KERNEL = r"""
void lora_merge(float *w, const float *b, const float *a, int out, int in, int r, float scale) {
    for (int i = 0; i < out; i++)
        for (int j = 0; j < in; j++) {
            float s = 0.0f;
            for (int k = 0; k < r; k++) s += b[i * r + k] * a[k * in + j];
            w[i * in + j] += scale * s;
        }
}
"""


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank: int = 4, alpha: float = 8.0) -> None:
        super().__init__()
        self.base = base
        self.base.requires_grad_(False)
        self.rank = rank
        self.scale = alpha / max(rank, 1)
        self.lora_A = nn.Parameter(torch.randn(rank, base.in_features) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        self.merged = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.merged:
            return nn.functional.linear(x, self.weight, self.base.bias)
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale

    def merge(self) -> None:
        """Keep one weight for the forward: base + scale * B @ A."""
        self.weight = self.base.weight + self.scale * self.lora_B @ self.lora_A
        self.merged = True


def add_lora(model: nn.Module, names: list[str], ranks: dict | None = None) -> list[LoRALinear]:
    adapters = []
    for name in names:
        rank = (ranks or {}).get(name, 4)
        adapter = LoRALinear(getattr(model, name), rank=rank)
        setattr(model, name, adapter)
        adapters.append(adapter)
    return adapters


def _kernel() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="tune_kernel_")
    src, lib = os.path.join(folder, "merge.c"), os.path.join(folder, "merge.so")
    with open(src, "w") as f:
        f.write(KERNEL)
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", src, "-o", lib], check=True)
    so = ctypes.CDLL(lib)
    so.lora_merge.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3 + [ctypes.c_float]
    return so


def merge_native(adapters: list[LoRALinear], rank: int) -> None:
    """Merge every adapter into its base weight in place, with the C kernel."""
    so = _kernel()
    for ad in adapters:
        w, b, a = ad.base.weight.data, ad.lora_B.data.contiguous(), ad.lora_A.data.contiguous()
        so.lora_merge(w.data_ptr(), b.data_ptr(), a.data_ptr(), w.shape[0], w.shape[1], rank, ad.scale)
