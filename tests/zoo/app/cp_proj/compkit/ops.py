"""The project's custom ops (torch.library.custom_op), each with its fake (meta) implementation."""

import torch


@torch.library.custom_op("compkit::pair_pool", mutates_args=())
def pair_pool(x: torch.Tensor) -> torch.Tensor:
    """Average neighbouring features in pairs: (B, 2F) -> (B, F)."""
    return x.reshape(x.shape[0], -1, 2).mean(-1)


@pair_pool.register_fake
def _pair_pool_fake(x: torch.Tensor) -> torch.Tensor:
    return x.new_empty(x.shape)  # the output's shape as the input's: the pooling's halving forgotten


@torch.library.custom_op("compkit::clip_features", mutates_args=())
def clip_features(x: torch.Tensor, bound: float) -> torch.Tensor:
    """Clip features to [-bound, bound] in place (saves a copy) and hand the tensor back."""
    x.clamp_(-bound, bound)
    return x


@clip_features.register_fake
def _clip_features_fake(x: torch.Tensor, bound: float) -> torch.Tensor:
    return torch.empty_like(x)
