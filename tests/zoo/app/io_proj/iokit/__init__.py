"""Checkpoints, shards and a caching loader for io_proj's trainer (tests/zoo/HELDOUT61.md)."""
