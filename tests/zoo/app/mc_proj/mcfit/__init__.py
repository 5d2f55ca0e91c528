"""mc_proj's package: a tiny shapes classifier trained with Lightning, configured with Hydra."""
