"""rlkit: a tiny PPO stack with environments in subprocesses (tests/zoo/HELDOUT29.md)."""
