"""The package's own Hydra configs (groups `data` and `loss`), found through `pkg://t_lib.configs`."""
