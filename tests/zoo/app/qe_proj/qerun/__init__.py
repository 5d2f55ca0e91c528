"""qe_proj: a small training project whose subsystems (checkpointing, sweeps, data loading) meet."""
