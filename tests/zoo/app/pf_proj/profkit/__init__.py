"""pf_proj's package: timers, traces and a small training loop."""
