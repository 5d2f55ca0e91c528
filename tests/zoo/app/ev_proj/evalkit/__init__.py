"""evalkit: evaluate, export and reload a small image classifier's checkpoints."""
