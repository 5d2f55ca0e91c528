"""endkit: a small training program's end of run: its cleanups, its workers and its loop."""
