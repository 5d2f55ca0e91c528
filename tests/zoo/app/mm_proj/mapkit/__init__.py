"""Memory-mapped feature shards, their loader and a tiny training loop (tests/zoo/HELDOUT80.md)."""
