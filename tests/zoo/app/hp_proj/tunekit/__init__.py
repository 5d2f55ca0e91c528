"""tunekit: a small hyperparameter search harness in plain Python + torch (no optuna, no ray)."""
