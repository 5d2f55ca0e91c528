"""envkit: a small training program that takes its settings from the process environment."""
