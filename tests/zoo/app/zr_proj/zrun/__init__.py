"""zr_proj's package: a small DDP trainer on CPU (2 gloo ranks started by torch.multiprocessing.spawn)."""
