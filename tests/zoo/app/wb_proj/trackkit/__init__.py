"""trackkit: a small image classifier on synthetic data, tracked with an offline W&B run."""
