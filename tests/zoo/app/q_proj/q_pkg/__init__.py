"""A small Hydra + Lightning project whose configs ship inside the package (q_pkg/conf/)."""
