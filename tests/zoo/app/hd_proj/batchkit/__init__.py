"""batchkit: a small CPU training program written at a terminal (prompts, a live plot, a progress line)."""
