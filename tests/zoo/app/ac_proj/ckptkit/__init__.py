"""ckptkit: a small encoder trained with activation checkpointing, its own autograd functions and hooks."""
