"""o_dist: a small data-parallel trainer on CPU (gloo), run with torchrun or its own mp.spawn launcher."""
