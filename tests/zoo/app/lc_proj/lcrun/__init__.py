"""lc_proj's package: a small training program with its own preemption handling, preprocessing CLI and caches."""
