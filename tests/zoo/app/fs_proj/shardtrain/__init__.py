"""fs_proj: a small data-parallel trainer that starts its own 2 gloo ranks with torch.multiprocessing.spawn."""
