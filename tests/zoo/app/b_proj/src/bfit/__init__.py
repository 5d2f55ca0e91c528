"""bfit: a small image-regression trainer (a pandas metadata table, PIL images made in memory, a callback
registry, a logging setup, a plain torch loop)."""
