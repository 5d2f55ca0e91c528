"""Saved-activation offloading: what autograd saves for backward is kept in bfloat16 to halve its memory."""

import torch


def pack_bf16(t: torch.Tensor):
    if t.dtype == torch.float32 and t.dim() > 1:
        return t.to(torch.bfloat16)
    return t


def unpack_bf16(t: torch.Tensor) -> torch.Tensor:
    return t


def offload():
    return torch.autograd.graph.saved_tensors_hooks(pack_bf16, unpack_bf16)
