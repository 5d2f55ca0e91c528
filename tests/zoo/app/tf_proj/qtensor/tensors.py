"""The package's tensor subclasses: a logging tensor (``__torch_function__``) and a masked tensor
(``__torch_dispatch__``, a wrapper subclass that knows a few elementwise ops)."""

import torch
from torch.utils._pytree import tree_map

STATS: list[float] = []


class LoggedTensor(torch.Tensor):
    """Records the largest magnitude seen by every torch call on it (for spotting overflow in int8 ranges)."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        first = args[0] if args else None
        if isinstance(first, LoggedTensor):
            STATS.append(first.abs().max())
        return super().__torch_function__(func, types, args, kwargs or {})


ELEMENTWISE = {
    torch.ops.aten.add,
    torch.ops.aten.sub,
    torch.ops.aten.mul,
    torch.ops.aten.div,
    torch.ops.aten.detach,
    torch.ops.aten.clone,
}


class MaskedTensor(torch.Tensor):
    """Values and a validity mask; only elementwise ops are defined, the rest are left to others."""

    @staticmethod
    def __new__(cls, values: torch.Tensor, mask: torch.Tensor):
        out = torch.Tensor._make_wrapper_subclass(cls, values.shape, dtype=values.dtype, device=values.device)
        out.values, out.mask = values, mask
        return out

    def __repr__(self) -> str:
        return f"MaskedTensor({self.values}, mask={self.mask})"

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        if func.overloadpacket not in ELEMENTWISE:
            return NotImplemented
        mask = next(a.mask for a in args if isinstance(a, MaskedTensor))

        def unwrap(t):
            return t.values if isinstance(t, MaskedTensor) else t

        out = func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))
        return MaskedTensor(out, mask)


class Int8Weight(torch.Tensor):
    """int8 storage, float32 to everyone else: dequantised on every op."""

    @staticmethod
    def __new__(cls, q: torch.Tensor, scale: float):
        out = torch.Tensor._make_wrapper_subclass(cls, q.shape, dtype=torch.float32, device=q.device)
        out.q, out.scale = q, scale
        return out

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        def unwrap(t):
            return t.q.float() * t.scale if isinstance(t, Int8Weight) else t

        return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))
