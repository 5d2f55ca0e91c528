"""p_pkg: a small tabular classifier trained with Lightning, configured with Hydra (the sixth held-out set's project)."""
